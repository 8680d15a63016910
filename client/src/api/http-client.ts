/**
 * The one fetch function every generated hook uses: adds the base path and the bearer token, and
 * turns every failure into an ApiError with the spec's wording.
 */
export const NETWORK_ERROR = 'Network error: Unable to connect to server';
export const TOKEN_KEY = 'auth_token';

const BASE_URL: string = import.meta.env.VITE_API_BASE_URL ?? '';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Field errors (`errors.email` and the like) when the server sent them. */
  get fieldErrors(): Record<string, string[]> {
    const errors = (this.data as { errors?: unknown } | null)?.errors;
    return errors && typeof errors === 'object' ? (errors as Record<string, string[]>) : {};
  }
}

type UnauthorizedListener = (error: ApiError) => void;
let unauthorizedListener: UnauthorizedListener | null = null;

/** The auth context listens here: a 401 on a call that carried a token means the session is gone. */
export function onUnauthorized(listener: UnauthorizedListener | null): void {
  unauthorizedListener = listener;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  // A successful text answer (e.g. a license file) is the text itself; only error bodies are wrapped.
  if (response.ok && type.startsWith('text/')) return response.text();
  if (type.includes('application/json')) {
    try {
      return await response.json();
    } catch {
      return null;
    }
  }
  if (type.startsWith('text/') || type === '') {
    const text = await response.text();
    // A non-JSON body is wrapped as a message.
    return text ? { message: text } : null;
  }
  return response.blob();
}

export async function httpClient<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  // JSON unless the caller asks for something else (a license file is text/plain).
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const token = localStorage.getItem(TOKEN_KEY);
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);

  let response: Response;
  try {
    response = await fetch(`${BASE_URL}${url}`, { ...init, headers });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(NETWORK_ERROR, 0);
  }

  const body = await readBody(response);
  if (!response.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    const error = new ApiError(
      typeof message === 'string' && message ? message : `HTTP ${response.status}: ${response.statusText}`,
      response.status,
      body,
    );
    if (response.status === 401 && token) unauthorizedListener?.(error);
    throw error;
  }
  return body as T;
}

export default httpClient;

// orval types every hook's error with this.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export type ErrorType<_E> = ApiError;
export type BodyType<B> = B;
