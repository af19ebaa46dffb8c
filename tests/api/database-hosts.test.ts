import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, NotPrimaryError } from '../../src/server/db/database';
import { freePort } from '../../src/server/db/embedded';
import { isDatabaseUnavailable } from '../../src/server/db/errors';
import { createLogger } from '../../src/server/lib/logger';
import { createTestDatabase } from '../support/app';

// A multi-host DATABASE_URL (ADR 009): connections go to the first server that answers and is of
// the kind target_session_attrs asks for; a standby (read-only) is passed over, and when none
// fits, the query fails as "unavailable" (503), until one does.

let url: URL;
let name: string;
let deadPort: number;

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url.toString().replace(`/${name}`, '/postgres') });
  await client.connect();
  await client.query(text);
  await client.end();
}

beforeAll(async () => {
  const created = await createTestDatabase();
  url = new URL(created.url);
  name = created.name;
  deadPort = await freePort();
});
afterAll(async () => {
  await admin(`alter database ${name} reset default_transaction_read_only`);
});

const hostList = (...hosts: string[]) => `postgres://${url.username}:${url.password}@${hosts.join(',')}/${name}`;
const live = () => `127.0.0.1:${url.port}`;
const dead = () => `127.0.0.1:${deadPort}`;

describe('a DATABASE_URL with several hosts', () => {
  it('passes over a server that refuses connections, and says so in the log', async () => {
    let logged = '';
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    const database = createDatabase(`${hostList(dead(), live())}?target_session_attrs=read-write`, {
      max: 2,
      log: createLogger({ logLevel: 'warn' }, { stream }),
    });
    try {
      const { rows } = await sql<{ port: number }>`select inet_server_port() as port`.execute(database.db);
      expect(rows[0]?.port).toBe(Number(url.port));
      expect(logged).toContain('database: trying the next host of DATABASE_URL');
      expect(logged).toContain(dead());
    } finally {
      await database.close();
    }
  });

  it('refuses a read-only server for read-write, as unavailable, and takes it once it is writable', async () => {
    await admin(`alter database ${name} set default_transaction_read_only = on`);
    const readWrite = createDatabase(`${hostList(dead(), live())}?target_session_attrs=read-write`, { max: 2, log: { warn: () => {} } });
    const anyServer = createDatabase(hostList(live()), { max: 1, log: { warn: () => {} } });
    const primary = createDatabase(`${hostList(live())}?target_session_attrs=primary`, { max: 1, log: { warn: () => {} } });
    try {
      const error = await sql`select 1`.execute(readWrite.db).then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(NotPrimaryError);
      expect(isDatabaseUnavailable(error)).toBe(true);
      // Without target_session_attrs any server does; `primary` asks only that it is not in recovery.
      await expect(sql`select 1`.execute(anyServer.db)).resolves.toBeDefined();
      await expect(sql`select 1`.execute(primary.db)).resolves.toBeDefined();

      await admin(`alter database ${name} reset default_transaction_read_only`);
      const { rows } = await sql<{ read_only: string }>`select current_setting('transaction_read_only') as read_only`.execute(readWrite.db);
      expect(rows[0]?.read_only).toBe('off');
    } finally {
      await Promise.all([readWrite.close(), anyServer.close(), primary.close()]);
    }
  });
});
