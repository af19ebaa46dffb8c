import http from 'node:http';
import { connect as netConnect, type Server as NetServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HandedConnections, shareConnections } from '../../src/server/lib/shared-port';

// The HTTP servers of a cluster never listen: the primary accepts and hands connections over
// (lib/shared-port.ts). Their shutdown must still let a request in flight finish and end idle
// keep-alive connections, which node does only for a server that listens.

let listener: NetServer | null = null;
afterEach(async () => {
  await new Promise<void>((resolve) => (listener ? listener.close(() => resolve()) : resolve()));
  listener = null;
});

/** An HTTP server served through shareConnections with no workers, and a way to hold one request open. */
async function serve() {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer({ headersTimeout: 400, requestTimeout: 400, connectionsCheckingInterval: 50 }, (request, response) => {
    if (request.url === '/slow') void held.then(() => response.end('slow done'));
    else response.end('ok');
  });
  const connections = new HandedConnections(server);
  listener = shareConnections(connections, () => []);
  await new Promise<void>((resolve) => listener?.listen(0, '127.0.0.1', () => resolve()));
  const port = (listener.address() as AddressInfo).port;
  return { connections, port, release };
}

const get = (port: number, path: string, agent: http.Agent) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });

describe('connections handed to an HTTP server that does not listen', () => {
  it('are served, and at shutdown an idle one is ended at once while one with a request in flight finishes it first', async () => {
    const { connections, port, release } = await serve();
    const idle = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const busy = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect(await get(port, '/', idle)).toEqual({ status: 200, body: 'ok' });
    expect(await get(port, '/', busy)).toEqual({ status: 200, body: 'ok' });
    const idleSocket = Object.values(idle.freeSockets).flat()[0];
    const idleClosed = new Promise<void>((resolve) => idleSocket?.once('close', () => resolve()));

    // A slow request on the second keep-alive connection, in flight when the shutdown begins.
    const slow = get(port, '/slow', busy);
    await new Promise((resolve) => setTimeout(resolve, 50));
    let drained = false;
    const draining = connections.drain().then(() => (drained = true));
    await idleClosed;
    expect(drained).toBe(false);

    release();
    expect(await slow).toEqual({ status: 200, body: 'slow done' });
    await draining;
    expect(drained).toBe(true);
    idle.destroy();
    busy.destroy();
  });

  it('are ended when their client sends its request too slowly, as a listening server ends them', async () => {
    const { port } = await serve();
    const socket = netConnect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n');
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('settles at once when nothing is open, and refuses what is handed over after', async () => {
    const { connections, port } = await serve();
    await connections.drain();
    await expect(get(port, '/', new http.Agent())).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});
