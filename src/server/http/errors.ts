import type { FastifyError, FastifyInstance } from 'fastify';
import { z } from 'zod';

export type ErrorCode =
  | 'bad_request'
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'idempotency_conflict'
  | 'payload_too_large'
  | 'unsupported_media'
  | 'rate_limited'
  | 'locked'
  | 'insufficient_funds'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  idempotency_conflict: 409,
  payload_too_large: 413,
  unsupported_media: 415,
  rate_limited: 429,
  locked: 423,
  insufficient_funds: 400,
  internal: 500,
};

/** A failure the client can act on: the message is shown to the user as is. */
export class AppError extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
  get status(): number {
    return STATUS[this.code];
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new AppError('validation', message, fields);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('forbidden', message);
export const unauthorized = (message = 'Please sign in') => new AppError('unauthorized', message);
export const conflict = (message: string) => new AppError('conflict', message);

/** Turns zod issues into the `{ message, fields }` answer: the first issue's message leads. */
export function validationError(error: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    fields[key] ??= issue.message;
  }
  const first = error.issues[0];
  return new AppError('validation', first?.message ?? 'Invalid request', fields);
}

/** Parses untrusted input with a shared schema; bad input becomes a 400 with the schema's message. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** An invariant of the bank's own code: failing it is a bug, answered 500 and logged. */
export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`Assertion failed: ${message}`);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ message: error.message, code: error.code, fields: error.fields });
    }
    if (error instanceof z.ZodError) {
      const appError = validationError(error);
      return reply.status(400).send({ message: appError.message, code: appError.code, fields: appError.fields });
    }
    const fastifyError = error as FastifyError;
    const status = fastifyError.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ message: 'Too many requests. Please wait a moment and try again.', code: 'rate_limited' });
    }
    if (status === 413 || fastifyError.code === 'FST_REQ_FILE_TOO_LARGE' || fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ message: 'The request is too large.', code: 'payload_too_large' });
    }
    if (status >= 400 && status < 500) {
      const message =
        fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type.'
          : fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
            ? 'The request body is not valid JSON.'
            : 'Bad request.';
      return reply.status(status).send({ message, code: 'bad_request' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.', code: 'internal' });
  });
}
