import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** The Message-ID header the bank sent. */
  messageId: string | undefined;
}

export interface SmtpSink {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Stops listening: connections to the port are refused (a real outage, not a flag). */
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback that keeps what it receives. `port`: listen there again (the
 * server coming back after an outage). smtp-server's bundled certificate has expired: plain SMTP.
 */
export async function startSmtpSink(port = 0, received: ReceivedMail[] = []): Promise<SmtpSink> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          messageId: raw.match(/^Message-ID:\s*(<[^>]+>)/im)?.[1],
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.server.address() as { port: number }).port;
  return {
    port: bound,
    url: `smtp://127.0.0.1:${bound}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
