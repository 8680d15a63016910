import { RateLimits } from '../../src/common/rate-limit';
import { startTestApp, TestApp } from './test-app';

/**
 * Two portal instances on one database with one JWT secret, as behind a load balancer (each its own process state:
 * caches, batched writers, timers). `env` goes to both, e.g. REDIS_URL to share rate limits.
 */
export async function twoInstances(env: Record<string, string> = {}): Promise<[TestApp, TestApp]> {
  const a = await startTestApp(env);
  const database = a.config.database;
  const b = await startTestApp({
    ...env,
    JWT_SECRET: a.config.jwt.secret,
    ...(database.type === 'sqlite' ? { DATA_DIR: a.config.dataDir } : { DATABASE_URL: database.url }),
  });
  await Promise.all([a, b].map((t) => t.app.get(RateLimits).ready()));
  return [a, b];
}
