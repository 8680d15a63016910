import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { createValidationPipe } from '../../common/validation';
import { parseActivationRequest } from './activation-request';
import { ActivationRequestDto, DeactivationRequestDto } from './dto/activation.dto';

const valid = { license_key: ' SH-ABCDE-FGHJK ', server_uid: 'srv-0123456789', nonce: 'n0nce-0123456789abcdef' };
const samples: Array<Record<string, unknown> | unknown> = [
  valid,
  { ...valid, device_name: 'Edge', hostname: 'h.example.net', product: 'StreamHub', version: '2.1.0' },
  { ...valid, hostname: null },
  { ...valid, license_key: '' },
  { ...valid, license_key: '   ' },
  { ...valid, license_key: 'x'.repeat(65) },
  { ...valid, license_key: 42 },
  { ...valid, server_uid: 'short' },
  { ...valid, server_uid: 'has spaces in it' },
  { ...valid, server_uid: 'x'.repeat(129) },
  { ...valid, nonce: 'too-short' },
  { ...valid, nonce: 'with.dot.0123456789' },
  // eslint-disable-next-line no-loss-of-precision -- any number is refused as a nonce; its exact value does not matter
  { ...valid, nonce: 12345678901234567890 },
  { ...valid, hostname: 'x'.repeat(256) },
  { ...valid, version: 2 },
  { ...valid, os: 'linux', arch: 'arm64' },
  { ...valid, os: null, arch: null },
  { ...valid, os: 'plan9' },
  { ...valid, arch: 'X64' },
  { ...valid, os: 3 },
  { ...valid, admin: true },
  { license_key: valid.license_key },
  {},
  [],
  'text',
];

describe('parseActivationRequest', () => {
  const pipe = createValidationPipe();

  async function viaPipe(body: unknown, metatype: ArgumentMetadata['metatype']) {
    try {
      return { ok: true, value: JSON.parse(JSON.stringify(await pipe.transform(body, { type: 'body', metatype }))) };
    } catch (error) {
      return { ok: false, value: Object.keys((error as { getResponse(): { errors?: object } }).getResponse().errors ?? {}).sort() };
    }
  }

  function viaParser(body: unknown, withDetails: boolean) {
    try {
      return { ok: true, value: JSON.parse(JSON.stringify(parseActivationRequest(body, withDetails))) };
    } catch (error) {
      return { ok: false, value: Object.keys((error as { getResponse(): { errors?: object } }).getResponse().errors ?? {}).sort() };
    }
  }

  it.each(samples.map((sample) => [JSON.stringify(sample).slice(0, 60), sample]))(
    'agrees with the DTOs and the ValidationPipe: %s',
    async (_name, sample) => {
      expect(viaParser(sample, true)).toEqual(await viaPipe(sample, ActivationRequestDto));
      expect(viaParser(sample, false)).toEqual(await viaPipe(sample, DeactivationRequestDto));
    },
  );

  it('answers 400 with the spec error shape', () => {
    expect(() => parseActivationRequest({ ...valid, nonce: 'x' }, true)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
