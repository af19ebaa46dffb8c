import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { documentedResponse, type OpenApiDocument, type Operation } from './document';

/** Why an answer does not match what the document promises for it (null when it does). */
export type Mismatch = string | null;

const mediaTypeOf = (header: unknown): string =>
  String(header ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

const mediaMatches = (documented: string, actual: string): boolean => {
  const [type, subtype] = documented.toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
};

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  return ajv;
}

/** Whether a value passes a schema of the document (its $refs resolved against the document's components). */
export function valueChecker(document: OpenApiDocument): (schema: unknown, value: unknown) => boolean {
  const ajv = newAjv();
  const compiled = new WeakMap<object, ValidateFunction>();
  return (schema, value) => {
    if (typeof schema !== 'object' || schema === null) return schema !== false;
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...schema, components: document.components ?? {} });
      compiled.set(schema, validate);
    }
    return validate(value);
  };
}

/**
 * Checks answers against the document with ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1):
 * the status must be documented, a JSON body must match the schema documented for that status and
 * media type, and any other body (a picture, a PDF) must come with a documented media type.
 */
export function responseChecker(document: OpenApiDocument): (operation: Operation, response: LightMyRequestResponse) => Mismatch {
  const ajv = newAjv();
  const compiled = new Map<string, ValidateFunction>();
  const validatorFor = (key: string, schema: unknown): ValidateFunction => {
    let validate = compiled.get(key);
    if (!validate) {
      // The document's components travel with the schema, so its local $refs resolve.
      validate = ajv.compile({ ...(schema as object), components: document.components ?? {} });
      compiled.set(key, validate);
    }
    return validate;
  };

  return (operation, response) => {
    const documented = documentedResponse(operation, response.statusCode);
    if (!documented) return `status ${response.statusCode} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`;
    const media = mediaTypeOf(response.headers['content-type']);
    const hasBody = response.rawPayload.length > 0;
    const content = documented.response.content ?? {};
    if (!hasBody) return Object.keys(content).length === 0 || response.statusCode === 204 ? null : `status ${response.statusCode} answered no body`;
    const entry = Object.entries(content).find(([type]) => mediaMatches(type, media));
    if (!entry) {
      const listed = Object.keys(content);
      return listed.length === 0
        ? `status ${response.statusCode} (${media}) has no schema in the document`
        : `status ${response.statusCode} answered ${media}, the document lists ${listed.join(', ')}`;
    }
    const [type, { schema }] = entry;
    if (!/json/.test(media)) return null; // binary answers are checked by their media type
    if (schema === undefined) return `status ${response.statusCode} (${type}) has no schema in the document`;
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return `status ${response.statusCode} answered ${media} that is not JSON`;
    }
    const validate = validatorFor(`${operation.key} ${documented.key} ${type}`, schema);
    if (validate(body)) return null;
    const errors = (validate.errors ?? [])
      .slice(0, 3)
      .map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`)
      .join('; ');
    return `status ${response.statusCode} body does not match its schema: ${errors}`;
  };
}
