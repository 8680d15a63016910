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
