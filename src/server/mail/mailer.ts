import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** A mail as it is delivered: with the Message-ID its outbox row keeps for every attempt. */
export interface OutgoingMail extends MailMessage {
  messageId: string;
}

/**
 * How queued mail leaves the bank: SMTP (nodemailer) with SMTP_URL, else the development
 * transport, which only logs the message (it stays readable in the outbox table and at
 * /dev/mailbox). Services never call this: they queue mail with `queueMail` (mail/outbox.ts),
 * and the `send_mail` job delivers it.
 */
export interface Mailer {
  readonly from: string;
  /**
   * The development transport: the outbox row is the only copy a developer reads (/dev/mailbox),
   * so its body is kept after delivery. With SMTP the body (codes, links) is cleared once sent.
   */
  readonly keepsDeliveredMail: boolean;
  /** Rejects when the SMTP server refuses or cannot be reached (the job is then retried). */
  send(message: OutgoingMail): Promise<void>;
  close(): void;
}

export function createMailer(options: { smtpUrl?: string; from: string; log?: (line: string) => void; smtpOptions?: Record<string, unknown> }): Mailer {
  let transport: Transporter | undefined;
  if (options.smtpUrl) {
    transport = nodemailer.createTransport({ url: options.smtpUrl, ...(options.smtpOptions ?? {}) } as never);
  }
  return {
    from: options.from,
    keepsDeliveredMail: !transport,
    async send(message) {
      if (transport) {
        await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text, messageId: message.messageId });
        return;
      }
      // The development transport prints the whole message: this is where a developer reads codes.
      options.log?.(`[dev outbox] to ${message.to}: ${message.subject}\n${message.text}`);
    },
    close: () => transport?.close(),
  };
}
