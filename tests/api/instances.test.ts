import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { createAppContext } from '../../src/server/context';
import { createDatabase, type DatabaseHandle, type DB } from '../../src/server/db/database';
import { migrateToLatest, pendingMigrations } from '../../src/server/db/migrate';
import { installJobSchema } from '../../src/server/jobs/runner';
import { createLogger } from '../../src/server/lib/logger';
import { createMailer } from '../../src/server/mail/mailer';
import { DEMO_DATABASE_MESSAGE, REAL_DATABASE_MESSAGE, seed } from '../../src/server/seed';
import { createTestDatabase } from '../support/app';

// Instances on other machines start against one DATABASE_URL at the same moment: each migrates
// (the bank's schema and the job queue's) and seeds. Kysely's migration lock and the advisory locks
// of the job schema and the seed make that the same as one start.
const handles: DatabaseHandle[] = [];
afterAll(async () => {
  await Promise.all(handles.map((handle) => handle.close()));
});

function instance(url: string, env: Record<string, string> = {}) {
  const database = createDatabase(url, { max: 4 });
  handles.push(database);
  const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }), rateLimits: false };
  const log = createLogger(config, { level: 'silent' });
  const context = createAppContext({ config, db: database.db, mailer: createMailer({ from: config.mailFrom }), log });
  return {
    db: database.db,
    start: async () => {
      await migrateToLatest(database.db);
      await installJobSchema(database.pool, log);
      return seed(context);
    },
  };
}

async function contents(db: DB) {
  const users = await db.selectFrom('users').select(['email', 'is_admin']).orderBy('email').execute();
  const accounts = await sql<{ count: number }>`select count(*)::int as count from ledger_accounts`.execute(db);
  const entries = await sql<{ count: number }>`select count(*)::int as count from journal_entries`.execute(db);
  // graphile-worker's schema, installed by each start under its advisory lock: every migration once.
  const jobMigrations = await sql<{ id: number }>`select id from graphile_worker.migrations order by id`.execute(db);
  return { users, accounts: accounts.rows[0]?.count, entries: entries.rows[0]?.count, jobMigrations: jobMigrations.rows.map((row) => row.id) };
}

describe('several instances starting at once on one database', () => {
  it('migrate, install the job queue and seed as one start does: the two demo admins, one set of demo customers, one opening each', async () => {
    const alone = instance((await createTestDatabase()).url);
    const signInsAlone = await alone.start();
    const expected = await contents(alone.db);
    // The first admin and the second one demo mode seeds for four eyes (ADR 023).
    expect(expected.users.filter((user) => user.is_admin)).toHaveLength(2);
    expect(expected.entries).toBeGreaterThan(0);
    expect(expected.jobMigrations.length).toBeGreaterThan(10);

    const { url } = await createTestDatabase();
    const together = [instance(url), instance(url), instance(url)];
    const signIns = await Promise.all(together.map((each) => each.start()));
    expect(await contents(together[0]!.db)).toEqual(expected);
    for (const each of signIns) expect(each).toEqual(signInsAlone);
  });
});

describe('an older instance on a database a newer release migrated (a rolling upgrade)', () => {
  it('starts without migrating once every migration it knows is there, and names what is wrong otherwise', async () => {
    const { url } = await createTestDatabase();
    const database = createDatabase(url, { max: 2 });
    handles.push(database);
    await migrateToLatest(database.db);
    const ours = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    await sql`insert into kysely_migration (name, timestamp) values ('2099-01-01-99-next-release', now()::text)`.execute(database.db);

    const said: string[] = [];
    expect(await migrateToLatest(database.db, { log: (line) => said.push(line) })).toEqual([]);
    expect(said).toEqual([
      'the database has 1 migration(s) newer than this code (2099-01-01-99-next-release): starting without migrating, as an older instance during an upgrade',
    ]);
    // The ready probe's view: nothing this code needs is pending.
    expect(await pendingMigrations(database.db)).toEqual([]);

    // Newer migrations, and one of this code's own missing: not a state to start in.
    const last = ours.rows.at(-1)!.name;
    await sql`delete from kysely_migration where name = ${last}`.execute(database.db);
    await expect(migrateToLatest(database.db)).rejects.toThrow(
      `The database has migrations this code does not know (2099-01-01-99-next-release) but not all of its own (${last}): start the release that wrote them, or restore a matching backup.`,
    );
  });
});

describe('the kind of bank a database holds', () => {
  it('is recorded at the first start; a start or a worker with the other DEMO_MODE is refused and adds nobody', async () => {
    const { url } = await createTestDatabase();
    const real = instance(url, { DEMO_MODE: 'false' });
    await real.start();
    const before = await contents(real.db);
    expect(before.users).toHaveLength(1);
    // Demo mode is the default: a start that forgot DEMO_MODE=false would add published sign-ins.
    await expect(instance(url).start()).rejects.toThrow(REAL_DATABASE_MESSAGE);
    expect(await contents(real.db)).toEqual(before);
    // `npm run worker` with DATABASE_URL alone would send the bank's mail to the development outbox.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'll-worker-'));
    const worker = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/cli/worker.ts'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(worker.status, worker.stderr).toBe(1);
    expect(worker.stderr).toContain(REAL_DATABASE_MESSAGE);

    const demo = (await createTestDatabase()).url;
    await instance(demo).start();
    await expect(instance(demo, { DEMO_MODE: 'false' }).start()).rejects.toThrow(DEMO_DATABASE_MESSAGE);
    // A database from before the record: the demo customers in it say it is a demo.
    const demoDb = instance(demo, { DEMO_MODE: 'false' });
    await sql`delete from bank_mode`.execute(demoDb.db);
    await expect(demoDb.start()).rejects.toThrow(DEMO_DATABASE_MESSAGE);
    expect(await instance(demo).start()).toEqual(expect.arrayContaining([expect.objectContaining({ email: 'alex.morgan@example.com' })]));
  });
});
