import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context';
import { databaseUnavailable, describeDatabaseError, isDatabaseUnavailable } from '../db/errors';
import { AppError, type ErrorCode, validationError } from '../lib/errors';
import { replayAfterError } from './idempotency';

/** The one place a domain error becomes an HTTP status. */

export const UNSUPPORTED_MEDIA_MESSAGE =
  'Unsupported content type: send JSON (Content-Type: application/json), or multipart/form-data where a file is uploaded.';
export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  second_factor_required: 403,
  not_found: 404,
  conflict: 409,
  idempotency_conflict: 409,
  payload_too_large: 413,
  unsupported_media: 415,
  rate_limited: 429,
  locked: 423,
  insufficient_funds: 400,
  unavailable: 503,
  internal: 500,
};

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';

/** Seconds a client should wait before retrying a 503 (the database or the writer is busy). */
export const RETRY_AFTER_SECONDS = 2;

function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.code === 'unavailable') reply.header('Retry-After', String(RETRY_AFTER_SECONDS));
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  return reply.status(STATUS_OF[error.code]).send({ message: error.message, code: error.code, ...(error.fields ? { fields: error.fields } : {}) });
}

/**
 * Failures Fastify answers before any route (or error handler) runs: a path that is not valid
 * percent-encoding, or a path parameter longer than the router takes. Its own answers would not
 * have the API's error shape (and would echo the path back); these keep its statuses.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') reply.status(414).send({ message: 'The address is too long.', code: 'bad_request' });
  else if (error.code === 'FST_ERR_BAD_URL') reply.status(400).send({ message: 'Bad request.', code: 'bad_request' });
  else reply.status(500).send({ message: INTERNAL_ERROR_MESSAGE, code: 'internal' });
}

/**
 * Maps every failure to `{ message, code, fields? }`. Request validation from a route's schema
 * answers 400 naming the fields (a malformed id in the path is 404: nothing has that id; any other
 * malformed path parameter is a 400 like a body field); domain
 * errors answer their code's status; a database that cannot be reached is a 503 with Retry-After;
 * anything else is a 500 whose details stay in the log.
 */
export function registerErrorHandler(app: FastifyInstance, context: AppContext): void {
  app.setErrorHandler(async (error: FastifyError | AppError | Error, request, reply) => {
    if (request.idempotency) {
      // The same key for another request is a 409 here too, found while looking for the winner.
      const replayed = await replayAfterError(request, reply, error, context).catch((replayError: unknown) => replayError);
      if (replayed instanceof AppError) return sendError(reply, replayed);
      if (replayed === true) return reply;
    }
    if (error instanceof AppError) return sendError(reply, error);
    if (isDatabaseUnavailable(error)) {
      // Not a bug and not the client's fault: the database is restarting, failing over or unreachable.
      // One line per request, without a stack: during an outage every request says the same.
      request.log.warn({ reason: describeDatabaseError(error) }, 'database unavailable; answered 503');
      return sendError(reply, databaseUnavailable());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path names nothing: 404. Another path parameter (an email) says what is wrong with it.
      const pathIdsOnly = error.validationContext === 'params' && error.validation.every((issue) => /^\/(id|\w+Id)$/.test(issue.instancePath));
      if (pathIdsOnly) return sendError(reply, new AppError('not_found', 'Not found'));
      const fields: Record<string, string> = {};
      for (const issue of error.validation) fields[issue.instancePath.slice(1).replaceAll('/', '.') || '_'] ??= issue.message ?? 'Invalid value';
      return sendError(reply, new AppError('validation', error.validation[0]?.message ?? 'Invalid request', fields));
    }
    if (error instanceof z.ZodError) return sendError(reply, validationError(error));
    const fastifyError = error as FastifyError;
    // A response that does not match its schema is a bug of ours (500, logged), whatever its status says.
    const serialization = fastifyError.code === 'FST_ERR_RESPONSE_SERIALIZATION';
    if (!serialization) {
      const status = fastifyError.statusCode ?? 500;
      if (status === 429) return sendError(reply, new AppError('rate_limited', 'Too many requests. Please wait a moment and try again.'));
      if (status === 413 || fastifyError.code === 'FST_REQ_FILE_TOO_LARGE' || fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(reply, new AppError('payload_too_large', 'The request is too large.'));
      }
      if (status >= 400 && status < 500) {
        const message =
          fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? UNSUPPORTED_MEDIA_MESSAGE
            : fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
              ? 'The request body is not valid JSON.'
              : 'Bad request.';
        return reply.status(status).send({ message, code: 'bad_request' });
      }
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: INTERNAL_ERROR_MESSAGE, code: 'internal' });
  });
}
