import { Secret, TOTP } from 'otpauth';

const PERIOD_MS = 30_000;

/** The code an authenticator app shows for this base32 secret, `steps` time steps from now (0: the current one). */
export function totpCode(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: Date.now() + steps * PERIOD_MS,
  });
}

/**
 * Resolves once at least `ms` remain in the current time step, so codes computed now still belong to the step the
 * server checks them in (a test that uses neighbouring steps would otherwise fail at a step boundary).
 */
export async function awayFromStepBoundary(ms = 4000): Promise<void> {
  while (PERIOD_MS - (Date.now() % PERIOD_MS) < ms) await new Promise((resolve) => setTimeout(resolve, 100));
}
