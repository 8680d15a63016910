import { Inject, Injectable, Logger } from '@nestjs/common';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport, Transporter } from 'nodemailer';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends mail through SMTP when SMTP_URL is set. Without it the mail is written to the log and
 * appended to DATA_DIR/mail.log, so a development install still gets its verification links.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter | null;
  readonly outboxFile: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.transport = config.mail.smtpUrl ? createTransport(config.mail.smtpUrl) : null;
    this.outboxFile = join(config.dataDir, 'mail.log');
  }

  async send(message: MailMessage): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.mail.from, ...message });
      return;
    }
    const entry = [`Date: ${new Date().toISOString()}`, `To: ${message.to}`, `Subject: ${message.subject}`, '', message.text, '', ''].join(
      '\n',
    );
    this.logger.log(`Mail (no SMTP_URL configured) to ${message.to}: ${message.subject}\n${message.text}`);
    await mkdir(this.config.dataDir, { recursive: true });
    await appendFile(this.outboxFile, `${entry}----\n`);
  }
}
