import { Agent, get, IncomingHttpHeaders } from 'node:http';
import { startPortalProcess } from './support/portal-process';

/** The HTTP server as `main` sets it up behind a load balancer. */
describe(`the HTTP server (${process.env.TEST_DB})`, () => {
  it('keeps idle connections open longer than a balancer does (65 s by default, HTTP_KEEP_ALIVE_SECONDS), and says so', async () => {
    for (const [env, timeout] of [
      [{}, 65],
      [{ HTTP_KEEP_ALIVE_SECONDS: '125' }, 125],
    ] as const) {
      const portal = await startPortalProcess(env);
      const agent = new Agent({ keepAlive: true });
      try {
        const headers = await new Promise<IncomingHttpHeaders>((resolve, reject) =>
          get(`${portal.base}/api/health`, { agent }, (response) => {
            response.resume();
            resolve(response.headers);
          }).on('error', reject),
        );
        // Node announces its keepAliveTimeout to the client; a balancer idling 60 s never reuses a closing connection.
        expect(headers.connection).toBe('keep-alive');
        expect(headers['keep-alive']).toBe(`timeout=${timeout}`);
      } finally {
        agent.destroy();
        portal.cleanup();
      }
    }
  });
});
