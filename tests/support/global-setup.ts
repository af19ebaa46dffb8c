import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/server/db/embedded';

let server: EmbeddedServer | undefined;
let directory: string | undefined;

/** One embedded PostgreSQL for the whole run; each test file makes its own database in it. */
export async function setup(project: TestProject): Promise<void> {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-test-pg-'));
  // Tests trade durability for speed; the crash test starts its own durable server.
  server = await startEmbeddedPostgres(path.join(directory, 'data'), {
    flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'max_connections=300'],
  });
  project.provide('postgresAdminUrl', server.url('postgres'));
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (directory) fs.rmSync(directory, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}
