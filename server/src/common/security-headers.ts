import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { ServerResponse } from 'node:http';

/**
 * The headers of every API response (JSON, files), after OWASP's REST guidance: nothing in a response may run,
 * be framed or be sniffed into another type. Smaller than helmet's page set, which is made for HTML.
 */
export const API_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/**
 * What every API response gets before its handler runs, as name, value, name, value: the security headers, and
 * no cache (API responses may depend on the caller; a handler whose response may be cached says so itself). The
 * middleware sets them; the fast paths before Express write them with their responses.
 */
export const API_RESPONSE_HEADERS: readonly string[] = [...API_SECURITY_HEADERS.flat(), 'Cache-Control', 'no-store'];

/** Sets API_RESPONSE_HEADERS on a response. */
export function setApiResponseHeaders(response: ServerResponse): void {
  for (let n = 0; n < API_RESPONSE_HEADERS.length; n += 2) response.setHeader(API_RESPONSE_HEADERS[n], API_RESPONSE_HEADERS[n + 1]);
}

/** Pages under /api that a browser renders: Swagger UI. */
const API_PAGES = /^\/api\/docs(\/|$)/;

/** helmet's full set for pages (the web client, Swagger UI); the API set for everything else under /api. */
export function securityHeaders(): RequestHandler {
  const pages = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine and Swagger UI set inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  return (request: Request, response: Response, next: NextFunction) => {
    const path = request.path;
    if (!path.startsWith('/api/') || API_PAGES.test(path)) return pages(request, response, next);
    setApiResponseHeaders(response);
    next();
  };
}
