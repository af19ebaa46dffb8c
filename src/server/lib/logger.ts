import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import type { Config } from '../config';

export type { Logger };

/** The request log never carries a query string (reset links carry tokens), a body or a cookie. */
const serializers = {
  req(request: { method: string; url: string; ip?: string }) {
    return { method: request.method, url: request.url.split('?')[0], ip: request.ip };
  },
};

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);

/** One pino line as a person reads it: `12:04:05 INFO  [request id] message  POST /api/x 201 4ms key=value`. */
export function readableLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toISOString().slice(11, 19);
  const level = (LEVEL_NAMES[Number(entry.level)] ?? String(entry.level)).padEnd(5);
  const request = entry.req as { method?: string; url?: string } | undefined;
  const response = entry.res as { statusCode?: number } | undefined;
  const parts = [time, level, entry.reqId ? `[${String(entry.reqId).slice(0, 8)}]` : '', String(entry.msg ?? '')];
  if (request?.method) parts.push(` ${request.method} ${request.url ?? ''}`);
  if (response?.statusCode) parts.push(`${response.statusCode}${typeof entry.responseTime === 'number' ? ` ${entry.responseTime.toFixed(0)}ms` : ''}`);
  for (const [key, value] of Object.entries(entry)) if (!OMITTED.has(key)) parts.push(`${key}=${JSON.stringify(value)}`);
  const error = entry.err as { stack?: string; message?: string } | undefined;
  const stack = error ? `\n${error.stack ?? error.message ?? ''}` : '';
  return `${parts.filter(Boolean).join(' ')}${stack}\n`;
}

/** Development's log destination: readable lines on stdout (no extra dependency, no worker thread). */
const readableStdout = (): Writable =>
  new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n')) if (line) process.stdout.write(readableLine(line));
      callback();
    },
  });

/**
 * The one logger of a process: the app's request log, services and jobs write through it. Every
 * line of a request carries its id (`reqId`). JSON lines in production and tests (for the log
 * collector), readable lines in development.
 * `stream`: send every line there (tests read what gets logged).
 */
export function createLogger(
  config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'env'>>,
  options: { stream?: NodeJS.WritableStream; level?: pino.LevelWithSilent } = {},
): Logger {
  const settings: pino.LoggerOptions = {
    level: options.level ?? config.logLevel,
    serializers,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
  };
  const stream = options.stream ?? (config.env === 'development' ? readableStdout() : undefined);
  return stream ? pino(settings, stream as pino.DestinationStream) : pino(settings);
}
