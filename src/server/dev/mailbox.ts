import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The development outbox: with no SMTP_URL, mail is kept in memory and shown here. Never
 * registered in production mode, and empty whenever real SMTP is configured. Not under /api: it is
 * a developer's page (no sign-in, not in the API document).
 */
export function devMailboxRoutes(context: Pick<AppContext, 'mailer'>): FastifyPluginAsync {
  return async (app) => {
    app.get('/dev/mailbox', async (request, reply) => {
      const messages = context.mailer.outbox();
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
