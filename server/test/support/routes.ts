import { NestExpressApplication } from '@nestjs/platform-express';

export interface RegisteredRoute {
  method: string;
  path: string;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
}

/** Every route the Express router holds, read from the running app (so routes added later are included). */
export function registeredRoutes(app: NestExpressApplication): RegisteredRoute[] {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } };
  return express.router.stack
    .filter((layer) => layer.route)
    .flatMap((layer) =>
      Object.keys(layer.route!.methods)
        .filter((method) => method !== '_all')
        .map((method) => ({ method: method.toUpperCase(), path: layer.route!.path })),
    );
}

/** A concrete URL for a route pattern: every `:param` becomes 1. */
export const concrete = (path: string) => path.replace(/:(\w+)/g, '1');

/**
 * Other spellings of a concrete path that a lenient router or a path-based check might take for it: case,
 * percent-encoded letters, doubled slashes, a trailing slash, dot segments and `;params`.
 */
export function spellingVariants(path: string): string[] {
  const segments = path.split('/').slice(1); // ['api', 'admin', 'users', '1']
  const at = (index: number, change: (segment: string) => string) =>
    '/' + segments.map((segment, i) => (i === index ? change(segment) : segment)).join('/');
  const encodeFirstLetter = (segment: string) =>
    segment.replace(/[a-z]/i, (letter) => `%${letter.charCodeAt(0).toString(16).toUpperCase()}`);
  const mixedCase = (segment: string) => [...segment].map((char, i) => (i % 2 ? char.toUpperCase() : char.toLowerCase())).join('');
  const variants = [
    path.toUpperCase(),
    at(1, (segment) => segment.toUpperCase()),
    at(1, (segment) => segment[0].toUpperCase() + segment.slice(1)),
    at(1, mixedCase),
    at(segments.length - 1, (segment) => segment.toUpperCase()),
    at(0, (segment) => segment.toUpperCase()),
    at(1, encodeFirstLetter),
    at(segments.length - 1, encodeFirstLetter),
    at(1, (segment) => segment.replace(/[a-z]/i, (letter) => `%${letter.charCodeAt(0).toString(16).toLowerCase()}`)),
    `/${path}`,
    path.replace('/api/', '/api//'),
    path.replace('/admin/', '/admin//'),
    `${path}/`,
    `${path}//`,
    path.replace('/admin/', '/./admin/'),
    path.replace('/admin/', '/admin/./'),
    path.replace('/api/', '/api/x/../'),
    path.replace('/admin/', '/admin/x/../'),
    path.replace('/admin/', '/admin/%2e/'),
    path.replace('/admin/', '/admin%2f'),
    path.replace('/admin/', '/admin;x=1/'),
    `${path};x=1`,
    `${path}%20`,
    `${path}%00`,
  ];
  return [...new Set(variants)].filter((variant) => variant !== path);
}
