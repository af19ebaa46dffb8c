import type { FastifyInstance } from 'fastify';
import { JSON_DEPTH_MAX } from '../../shared/limits';
import { AppError } from '../lib/errors';

/** True when the JSON text nests arrays/objects deeper than `max` (one pass, no recursion). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 92)
        index += 1; // backslash: skip the escaped character
      else if (char === 34) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 || char === 91) {
      depth += 1;
      if (depth > max) return true;
    } else if (char === 125 || char === 93) depth -= 1;
  }
  return false;
}

export const TOO_DEEP_MESSAGE = `The request body is nested too deeply (at most ${JSON_DEPTH_MAX} levels).`;

/**
 * Fastify's own JSON parser (prototype poisoning refused), behind a depth limit: a body nested
 * thousands deep is refused before anything (parsing, hashing, validation) recurses into it. The
 * API's bodies are JSON (and multipart where a file is sent, plugins/uploads.ts): Fastify's
 * text/plain parser goes, so a text body is refused as what it is (415) instead of being validated
 * as a string in place of an object.
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, JSON_DEPTH_MAX)) {
      done(new AppError('bad_request', TOO_DEEP_MESSAGE), undefined);
      return;
    }
    parse(request, text, done);
  });
}
