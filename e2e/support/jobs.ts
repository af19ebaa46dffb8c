import pg from 'pg';
import { runningEmbeddedUrl } from '../../src/server/db/embedded';

/** The e2e server's embedded PostgreSQL (playwright.config.ts starts it here). */
const dataDir = `/tmp/ledgerline-e2e-${Number(process.env.E2E_PORT ?? 3100)}`;

/** Queues a send_mail job that fails on its only attempt (its payload names no outbox row); answers its id. */
export async function queueFailingJob(): Promise<string> {
  const url = runningEmbeddedUrl(dataDir);
  if (!url) throw new Error(`no running PostgreSQL in ${dataDir}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ id: string }>(
      `select id::text as id from graphile_worker.add_job('send_mail', '{"outboxId": "not-a-number"}'::json, max_attempts => 1)`,
    );
    return result.rows[0]!.id;
  } finally {
    await client.end();
  }
}
