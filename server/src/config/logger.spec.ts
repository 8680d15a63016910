import type { IncomingMessage } from 'node:http';
import { genReqId } from './logger';

const requestWith = (id?: string | string[]) => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it("keeps a proxy's or client's X-Request-Id that is safe to repeat", () => {
    for (const id of ['abc-123', 'f0e1d2c3b4a5968778695a4b3c2d1e0f', 'Root=1-5f84c7a9-1e1b8e4d', 'trace:01HZX.7@edge/2']) {
      expect(genReqId(requestWith(id))).toBe(id);
    }
  });

  it('makes a new UUID for none, or for one that is too long or holds what a log line must not', () => {
    for (const id of [undefined, '', 'a'.repeat(129), 'two words', 'line\nbreak', '<script>', ['a', 'b']]) {
      expect(genReqId(requestWith(id))).toMatch(UUID);
    }
    expect(genReqId(requestWith())).not.toBe(genReqId(requestWith()));
  });
});
