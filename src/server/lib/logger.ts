import pino, { type Logger } from 'pino';
import type { Config } from '../config';

export type { Logger };

/** The request log never carries a query string (reset links carry tokens), a body or a cookie. */
const serializers = {
  req(request: { method: string; url: string; ip?: string }) {
    return { method: request.method, url: request.url.split('?')[0], ip: request.ip };
  },
};

/**
 * The one logger of a process: the app's request log, services and jobs write through it.
 * `stream`: send every line there (tests read what gets logged).
 */
export function createLogger(config: Pick<Config, 'logLevel'>, options: { stream?: NodeJS.WritableStream; level?: pino.LevelWithSilent } = {}): Logger {
  const settings: pino.LoggerOptions = {
    level: options.level ?? config.logLevel,
    serializers,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
  };
  return options.stream ? pino(settings, options.stream as pino.DestinationStream) : pino(settings);
}
