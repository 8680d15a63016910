import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render';
import { ApiError, httpClient, NETWORK_ERROR, onUnauthorized, TOKEN_KEY } from './http-client';

const stubFetch = (implementation: typeof fetch) => vi.stubGlobal('fetch', vi.fn(implementation));

describe('httpClient', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    onUnauthorized(null);
  });

  it('sends JSON Accept and the stored bearer token', async () => {
    localStorage.setItem(TOKEN_KEY, 'abc');
    stubFetch(async () => jsonResponse(200, { ok: true }));
    await expect(httpClient('/api/me', { method: 'GET' })).resolves.toEqual({ ok: true });
    const headers = new Headers(vi.mocked(fetch).mock.calls[0][1]!.headers);
    expect(headers.get('Authorization')).toBe('Bearer abc');
    expect(headers.get('Accept')).toBe('application/json');
  });

  it('returns a successful text answer as the text itself, and keeps an Accept header the caller chose', async () => {
    const file = '-----BEGIN STREAMHUB LICENSE-----\nabc\n';
    stubFetch(async () => new Response(file, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }));
    await expect(httpClient('/api/licenses/1/file', { headers: { Accept: 'text/plain' } })).resolves.toBe(file);
    expect(new Headers(vi.mocked(fetch).mock.calls[0][1]!.headers).get('Accept')).toBe('text/plain');
  });

  it('turns a network failure into the spec message', async () => {
    stubFetch(async () => {
      throw new TypeError('Failed to fetch');
    });
    const error = await httpClient('/api/health').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(NETWORK_ERROR);
    expect((error as ApiError).status).toBe(0);
  });

  it('uses the server message and keeps status, data and field errors', async () => {
    stubFetch(async () =>
      jsonResponse(409, { statusCode: 409, message: 'This email is already registered.', errors: { email: ['taken'] } }, 'Conflict'),
    );
    const error = (await httpClient('/api/register', { method: 'POST' }).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('This email is already registered.');
    expect(error.status).toBe(409);
    expect(error.fieldErrors).toEqual({ email: ['taken'] });
    expect(error.data).toMatchObject({ statusCode: 409 });
  });

  it("says 'HTTP {status}: {statusText}' when the error has no message", async () => {
    stubFetch(async () => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(httpClient('/api/x')).rejects.toThrow('HTTP 503: Service Unavailable');
    stubFetch(async () => jsonResponse(502, { detail: 'nope' }, 'Bad Gateway'));
    await expect(httpClient('/api/x')).rejects.toThrow('HTTP 502: Bad Gateway');
  });

  it('wraps a non-JSON error body as the message', async () => {
    stubFetch(
      async () =>
        new Response('upstream timed out', { status: 504, statusText: 'Gateway Timeout', headers: { 'Content-Type': 'text/plain' } }),
    );
    await expect(httpClient('/api/x')).rejects.toThrow('upstream timed out');
  });

  it('reports a 401 on a call that carried a token, and only then', async () => {
    const listener = vi.fn();
    onUnauthorized(listener);
    stubFetch(async () => jsonResponse(401, { message: 'Authentication expired. Please log in again.' }));
    await httpClient('/api/me').catch(() => undefined);
    expect(listener).not.toHaveBeenCalled();
    localStorage.setItem(TOKEN_KEY, 'stale');
    await httpClient('/api/me').catch(() => undefined);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
