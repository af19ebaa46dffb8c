// How a bench starts the bank it measures: the server with the node flags `npm run serve` gives it
// (read from package.json, so a bench runs what operators run), on a free port, waited for until
// /api/health answers, and stopped with SIGTERM as an operator's supervisor would.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** The node flags of `npm run serve` (package.json). */
export const serveFlags =
  (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.serve
    ?.split(/\s+/)
    .filter((word) => word.startsWith('--')) ?? [];

/** BENCH_PORT when set, otherwise a port nothing listens on. */
export function freePort(): Promise<number> {
  if (process.env.BENCH_PORT) return Promise.resolve(Number(process.env.BENCH_PORT));
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The bank's server with this environment over the bench's own; its log goes to the bench's stderr. `nodeFlags` come after the serve flags (a profiler's). */
export function startBank(env: NodeJS.ProcessEnv, nodeFlags: string[] = []): ChildProcess {
  return spawn(process.execPath, [...serveFlags, ...nodeFlags, '--import', 'tsx', 'src/server/server.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Until `url`/api/health answers 200; fails if the server exits first or does not answer in time. */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the bank exited with code ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the bank did not answer ${url}/api/health within ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL if it has not exited after `timeoutMs`. */
export async function stopBank(child: ChildProcess | undefined, timeoutMs = 20_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
