import { INestApplicationContext, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AppConfig } from '../server/src/config/app-config';
import { SettingsService } from '../server/src/modules/settings/settings.service';
import { UsersService } from '../server/src/modules/users/users.service';

export interface SeedReport {
  adminCreated: boolean;
  /** Set only when the admin was created with a generated password: shown once, never stored in clear. */
  generatedAdminPassword: string | null;
  settingsAdded: string[];
}

/**
 * Idempotent: creates the admin account (ADMIN_EMAIL / ADMIN_PASSWORD) if that e-mail is free and
 * stores default settings for groups that have none. A second run finds everything in place and changes nothing.
 */
export async function runSeeds(app: INestApplicationContext, config: AppConfig): Promise<SeedReport> {
  const users = app.get(UsersService);
  const settings = app.get(SettingsService);

  const generated = config.admin.password ? null : randomBytes(12).toString('base64url');
  const adminCreated = await users.ensureAdmin(config.admin.email, config.admin.password ?? generated!);
  const settingsAdded = await settings.ensureDefaults();
  return { adminCreated, generatedAdminPassword: adminCreated ? generated : null, settingsAdded };
}

/**
 * Says what the seeds did. The generated admin password comes in a box, last (main calls this once the portal
 * listens), so it is the last thing a newcomer sees at the first start.
 */
export function reportSeeds(report: SeedReport, config: AppConfig, logger = new Logger('Seeds')): void {
  if (report.settingsAdded.length) logger.log(`Default settings stored: ${report.settingsAdded.join(', ')}`);
  if (report.generatedAdminPassword) {
    const line = '='.repeat(72);
    // Printed once, on the start that created the admin; it is not written anywhere else.
    process.stdout.write(
      `\n${line}\n  Admin account created\n    e-mail:   ${config.admin.email}\n    password: ${report.generatedAdminPassword}\n` +
        `  Sign in at ${config.publicUrl}/secret-admin and change this password.\n${line}\n\n`,
    );
  } else if (report.adminCreated) {
    logger.log(`Admin account ${config.admin.email} created from ADMIN_PASSWORD`);
  }
}
