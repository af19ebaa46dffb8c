import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, startEmbeddedPostgres } from '../../src/server/db/embedded';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-embedded-'));
/** Processes a failed test could leave running: the owners, and any PostgreSQL under the directory. */
const owners: ChildProcess[] = [];
afterAll(() => {
  for (const child of owners) if (child.exitCode === null) child.kill('SIGKILL');
  const pidFile = path.join(directory, 'shared', 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGINT');
  }
  fs.rmSync(directory, { recursive: true, force: true });
});

/** Another process that starts the embedded PostgreSQL of `databaseDir` and keeps it (as a running bank does). */
async function anotherOwner(databaseDir: string) {
  const script = path.join(directory, 'owner.mts');
  fs.writeFileSync(
    script,
    `import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve('src/server/db/embedded.ts'))};\n` +
      `const server = await startEmbeddedPostgres(${JSON.stringify(databaseDir)});\n` +
      `console.log('ready ' + server.url('postgres'));\n` +
      `setInterval(() => {}, 1000);\n`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  owners.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the owner exited (${code}) before its PostgreSQL was ready`)));
  });
  return { child, url };
}

const answers = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('select 1 as one')).rows[0].one === 1;
  } finally {
    await client.end();
  }
};

const postmasterPid = (databaseDir: string) => Number(fs.readFileSync(path.join(databaseDir, 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('the embedded PostgreSQL', () => {
  it('refuses to initialise over a directory that holds other files, and leaves them there', async () => {
    const target = path.join(directory, 'not-a-cluster');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'precious.txt'), 'keep me');

    await expect(startEmbeddedPostgres(target)).rejects.toThrow(/has files but is not a PostgreSQL data directory/);
    expect(fs.readFileSync(path.join(target, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(fs.readdirSync(target)).toEqual(['precious.txt']);
  });

  it('leaves a running bank its PostgreSQL (a second start on the same DATA_DIR is refused), and takes over one left orphaned', async () => {
    const target = path.join(directory, 'shared');
    const owner = await anotherOwner(target);
    const pid = postmasterPid(target);

    // A second start while the first still runs: refused, and the first's database keeps answering.
    await expect(startEmbeddedPostgres(target)).rejects.toThrow(/is in use by another running Ledgerline \(process \d+, its PostgreSQL \d+\)/);
    expect(isAlive(pid)).toBe(true);
    expect(await answers(owner.url)).toBe(true);

    // The owner killed outright leaves its PostgreSQL orphaned: the next start stops it and takes over.
    owner.child.kill('SIGKILL');
    await new Promise((resolve) => owner.child.once('exit', resolve));
    expect(isAlive(pid)).toBe(true);
    const server = await startEmbeddedPostgres(target);
    try {
      expect(isAlive(pid)).toBe(false);
      expect(await answers(server.url('postgres'))).toBe(true);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('starts its PostgreSQL again when it dies, on the same address, and leaves it stopped when it was asked to stop', async () => {
    const target = path.join(directory, 'watched');
    const heard: string[] = [];
    const server = await startEmbeddedPostgres(target, { watchdog: { warn: (_details, message) => heard.push(message) } });
    try {
      const url = server.url('postgres');
      const first = postmasterPid(target);
      expect(await answers(url)).toBe(true);

      // Killed outright (as the out-of-memory killer does): back by itself, at the same URL.
      process.kill(first, 'SIGKILL');
      let back = false;
      for (let waited = 0; waited < 30_000 && !back; waited += 250) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        back = await answers(url).catch(() => false);
      }
      expect(back).toBe(true);
      expect(server.isRunning()).toBe(true);
      expect(postmasterPid(target)).not.toBe(first);
      expect(heard).toContain('embedded PostgreSQL exited; starting it again');
      expect(heard).toContain('embedded PostgreSQL is running again');

      // Asked to shut down (SIGINT: a fast shutdown, exit code 0): it stays down.
      const second = postmasterPid(target);
      const heardBefore = heard.length;
      process.kill(second, 'SIGINT');
      for (let waited = 0; waited < 15_000 && server.isRunning(); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.isRunning()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(server.isRunning()).toBe(false);
      expect(await answers(url).catch(() => false)).toBe(false);
      expect(heard.length).toBe(heardBefore);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
