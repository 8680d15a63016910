import { defineConfig } from 'orval';

/** Typed TanStack Query hooks and models from the server's contract. Output is committed and never edited. */
export default defineConfig({
  portal: {
    // The sync API is for other portals (server to server), not for the browser.
    input: { target: '../openapi.yaml', filters: { mode: 'exclude', tags: ['license-server-sync'] } },
    output: {
      mode: 'tags-split',
      target: 'src/api/generated/endpoints',
      schemas: 'src/api/generated/model',
      client: 'react-query',
      httpClient: 'fetch',
      clean: true,
      override: {
        mutator: { path: 'src/api/http-client.ts', name: 'httpClient' },
        fetch: { includeHttpResponseReturnType: false },
        query: { signal: true },
        // The spec makes the two Sync actions GET requests; the screens run them as button actions.
        operations: {
          syncVersions: { query: { useQuery: false, useMutation: true } },
          syncLicenses: { query: { useQuery: false, useMutation: true } },
        },
      },
    },
  },
});
