import { defineConfig } from 'orval';

/** Typed TanStack Query hooks and models from the server's contract. Output is committed and never edited. */
export default defineConfig({
  portal: {
    input: { target: '../openapi.yaml' },
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
      },
    },
  },
});
