import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface OutboxEntry extends MailMessage {
  id: number;
  from: string;
  sentAt: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Development outbox (no SMTP_URL): the newest messages, newest first. Empty with SMTP. */
  outbox(): OutboxEntry[];
  close(): void;
}

const OUTBOX_SIZE_MAX = 200;

export function createMailer(options: { smtpUrl?: string; from: string; log?: (line: string) => void; smtpOptions?: Record<string, unknown> }): Mailer {
  const entries: OutboxEntry[] = [];
  let nextId = 1;
  let transport: Transporter | undefined;
  if (options.smtpUrl) {
    transport = nodemailer.createTransport({ url: options.smtpUrl, ...(options.smtpOptions ?? {}) } as never);
  }
  return {
    async send(message) {
      if (transport) {
        await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text });
        return;
      }
      const entry: OutboxEntry = { ...message, id: nextId++, from: options.from, sentAt: new Date().toISOString() };
      entries.unshift(entry);
      entries.length = Math.min(entries.length, OUTBOX_SIZE_MAX);
      // The development outbox prints the whole message: this is where a developer reads codes.
      options.log?.(`[dev outbox] to ${message.to}: ${message.subject}\n${message.text}`);
    },
    outbox: () => entries.slice(),
    close: () => transport?.close(),
  };
}

/**
 * Sends a notice about a change that has already committed: a mail server hiccup must not turn
 * the change into an error for the person who made it, so a failure is only logged.
 */
export async function sendQuietly(context: { mailer: Mailer; log: { error(details: object, message: string): void } }, message: MailMessage): Promise<void> {
  await context.mailer.send(message).catch((error: unknown) => context.log.error({ err: error, subject: message.subject }, 'notification mail failed'));
}
