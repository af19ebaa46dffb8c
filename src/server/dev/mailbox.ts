import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context';
import { sentMail } from '../mail/repository';

/** The newest mails the page shows. */
const MAILBOX_SIZE_MAX = 200;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The development mailbox: with no SMTP_URL, the mail the send_mail job delivered to the
 * development transport, read from the outbox table (so every process and instance shows the
 * same). Registered only in demo mode without SMTP_URL. Not under /api: it is a developer's page
 * (no sign-in, not in the API document).
 */
export function devMailboxRoutes(context: Pick<AppContext, 'db' | 'mailer'>): FastifyPluginAsync {
  return async (app) => {
    app.get('/dev/mailbox', async (request, reply) => {
      const rows = await sentMail(context.db, MAILBOX_SIZE_MAX);
      const messages = rows.map((row) => ({
        id: row.id,
        from: context.mailer.from,
        to: row.to_address,
        subject: row.subject,
        text: row.body,
        sentAt: new Date(row.sent_at ?? row.created_at).toISOString(),
      }));
      const accept = request.headers.accept ?? '';
      if ((request.query as { format?: string }).format === 'json' || (accept.includes('application/json') && !accept.includes('text/html'))) {
        return reply.header('Cache-Control', 'no-store').send({ data: messages });
      }
      const items = messages
        .map(
          (message) =>
            `<article><h2>${escapeHtml(message.subject)}</h2><p>To ${escapeHtml(message.to)} · ${escapeHtml(message.sentAt)}</p><pre>${escapeHtml(message.text)}</pre></article>`,
        )
        .join('\n');
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Development mailbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#111}article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style></head>
<body><main><h1>Development mailbox</h1><p>Mail the bank sent while no SMTP_URL is set (newest first). This page does not exist in production mode.</p>${items || '<p>No mail yet.</p>'}</main></body></html>`;
      return reply
        .header('Cache-Control', 'no-store')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
        .type('text/html; charset=utf-8')
        .send(html);
    });
  };
}
