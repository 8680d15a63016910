import { describe, expect, it } from 'vitest';
import { isHttpUrl, isJsonObjectText, orNull, shortKey, today, VERSION_EXTENSIONS, VERSION_PATTERN } from './version-display';
import { allowedExtension } from '../../../lib/upload-rules';

describe('shortKey', () => {
  it('shows the first 8 characters of a hash or key', () => {
    expect(shortKey('e3b0c44298fc1c149afbf4c8996fb924')).toBe('e3b0c442');
    expect(shortKey('abc')).toBe('abc');
  });

  it("is null ('Not set') when there is nothing", () => {
    expect(shortKey(null)).toBeNull();
    expect(shortKey(undefined)).toBeNull();
    expect(shortKey('   ')).toBeNull();
  });
});

describe('form rules', () => {
  it('takes the version file types the server takes, case-insensitively', () => {
    expect(allowedExtension('streamhub-2.4.0.zip', VERSION_EXTENSIONS)).toBe('.zip');
    expect(allowedExtension('Setup.EXE', VERSION_EXTENSIONS)).toBe('.exe');
    expect(allowedExtension('streamhub-2.4.0.tar.gz', VERSION_EXTENSIONS)).toBeNull();
    expect(allowedExtension('.zip', VERSION_EXTENSIONS)).toBeNull();
  });

  it('accepts semantic versions like 2.1.0 and 3.0.0-beta.1 only', () => {
    for (const ok of ['2.1.0', '4.4.0-beta.1', '3.0.0-rc.1', '1.2.3+build.7']) expect(VERSION_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', 'v2.1.0', '10.4', '04.1.0', 'two point one', '2.1.0.0.0']) expect(VERSION_PATTERN.test(bad), bad).toBe(false);
  });

  it('wants an http(s) URL for the download link', () => {
    expect(isHttpUrl('https://downloads.example.com/2.4.0')).toBe(true);
    expect(isHttpUrl('http://localhost:8080/x')).toBe(true);
    expect(isHttpUrl('ftp://example.com/x')).toBe(false);
    expect(isHttpUrl('not a url')).toBe(false);
  });

  it('wants system requirements as a JSON object', () => {
    expect(isJsonObjectText('{"os":"Ubuntu 22.04","ram":"4 GB"}')).toBe(true);
    expect(isJsonObjectText('{os: ubuntu')).toBe(false);
    expect(isJsonObjectText('[1,2]')).toBe(false);
    expect(isJsonObjectText('null')).toBe(false);
  });

  it('sends empty text as null and trims the rest', () => {
    expect(orNull('  ')).toBeNull();
    expect(orNull(' abc ')).toBe('abc');
  });

  it('defaults the release date to today in the local calendar', () => {
    expect(today(new Date(2025, 0, 5, 23, 30))).toBe('2025-01-05');
  });
});
