import type { Worker } from 'node:cluster';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import net from 'node:net';
import { messageType } from './ipc';

// WEB_CONCURRENCY=N is N processes serving HTTP: a cluster's primary and N-1 workers (ADR 008,
// "The primary serves too"). The primary accepts on the port, as node:cluster's round-robin does,
// and hands each new connection in turn to itself or to one of its workers (a socket handle over
// IPC, as the cluster module passes them). The HTTP servers therefore never listen: they are
// handed connections, and their shutdown waits for those connections here.

const CONNECTION = 'll:connection';

/**
 * An HTTP server's connections that were handed to it: served, and ended at shutdown once each has
 * no request in flight (node's own tracking of idle connections starts only when a server listens).
 */
export class HandedConnections {
  private readonly open = new Set<net.Socket>();
  /** Requests in flight on each connection that has any. */
  private readonly busy = new Map<net.Socket, number>();
  private draining = false;
  private drained: (() => void) | null = null;

  constructor(private readonly server: HttpServer) {
    // Node starts checking a server's connections (the headers and request timeouts that end a
    // client sending too slowly, and its list of idle ones) when it begins to listen; one that is
    // only handed connections never does, so they start here.
    server.emit('listening');
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket;
      this.busy.set(socket, (this.busy.get(socket) ?? 0) + 1);
      response.once('close', () => {
        const left = (this.busy.get(socket) ?? 1) - 1;
        if (left > 0) return void this.busy.set(socket, left);
        this.busy.delete(socket);
        if (this.draining) end(socket);
      });
    });
  }

  serve(socket: net.Socket): void {
    if (this.draining) {
      socket.destroy();
      return;
    }
    this.open.add(socket);
    socket.once('close', () => {
      this.open.delete(socket);
      this.busy.delete(socket);
      if (this.draining && this.open.size === 0) this.drained?.();
    });
    this.server.emit('connection', socket);
    // The primary accepted it paused (nothing read before it was handed over).
    socket.resume();
  }

  /**
   * Once the app is closing (it answers new requests 503): ends every connection without a request
   * in flight now, and each other one as its last response is written; settles when none is left.
   */
  async drain(): Promise<void> {
    this.draining = true;
    if (this.open.size === 0) return;
    const done = new Promise<void>((resolve) => (this.drained = resolve));
    for (const socket of this.open) if (!this.busy.has(socket)) end(socket);
    await done;
  }
}

/** Ends a connection once what was written to it has left. */
const end = (socket: net.Socket) => socket.end(() => socket.destroy());

/** In a worker: serves the connections its primary hands over. */
export function receiveConnections(connections: HandedConnections): void {
  process.on('message', (message: unknown, handle: unknown) => {
    if (messageType(message) === CONNECTION && handle instanceof net.Socket) connections.serve(handle);
  });
}

/**
 * In the primary: accepts on the port and hands each new connection in turn to this process or to
 * one of the workers ready to serve. A connection whose worker cannot take it is served here.
 */
export function shareConnections(here: HandedConnections, workers: () => Worker[]): net.Server {
  let turn = 0;
  return net.createServer({ pauseOnConnect: true, noDelay: true }, (socket) => {
    const ready = workers();
    turn = (turn + 1) % (ready.length + 1);
    const worker = turn === 0 ? undefined : ready[turn - 1];
    if (!worker) return here.serve(socket);
    worker.send({ type: CONNECTION }, socket, (error) => {
      if (error && !socket.destroyed) here.serve(socket);
    });
  });
}
