/**
 * Reading the bank's OpenAPI 3.1 document as the tests need it: one flat list of operations with
 * their parameters, body and responses, `$ref`s resolved against the document's components.
 */

/** A JSON Schema as it appears in the document (loosely typed on purpose: it is data under test). */
export type JsonSchema = { [keyword: string]: unknown } | boolean;
export type SchemaObject = { [keyword: string]: unknown };

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, JsonSchema>; securitySchemes?: Record<string, Record<string, unknown>> };
  [key: string]: unknown;
}

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

export interface Parameter {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonSchema;
  /** @fastify/swagger moves a query or path property's description here, out of its schema. */
  description?: string;
}

export interface MediaType {
  schema?: JsonSchema;
}

export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaType>;
}

export interface Operation {
  /** `GET /api/loans/{id}`: how failures and the count table name it. */
  key: string;
  method: string;
  /** The path template with `{param}`s. */
  path: string;
  tags: string[];
  parameters: Parameter[];
  /** The request body's media types (application/json, multipart/form-data...), if any. */
  body: { required: boolean; content: Record<string, MediaType> } | null;
  responses: Record<string, ResponseObject>;
  /** Empty for a public operation; otherwise the schemes that sign a request in. */
  security: Array<Record<string, string[]>> | undefined;
  /** A money call: it documents the Idempotency-Key header. */
  idempotent: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

const isObject = (value: unknown): value is SchemaObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows one local `$ref` (`#/components/...`) of the document; anything else is returned as is. */
export function resolveRef(document: OpenApiDocument, value: unknown): unknown {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 20; hops += 1) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref} in the document`);
    let target: unknown = document;
    for (const raw of ref.slice(2).split('/')) {
      const segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
      target = isObject(target) ? target[segment] : undefined;
    }
    if (target === undefined) throw new Error(`dangling $ref ${ref} in the document`);
    // Keywords next to a $ref (2020-12 allows them) still apply.
    const { $ref: _ref, ...siblings } = current;
    current = Object.keys(siblings).length > 0 && isObject(target) ? { ...target, ...siblings } : target;
  }
  return current;
}

/** Every operation of the document, in document order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const raw = item[method];
      if (!isObject(raw)) continue;
      const parameters = [...shared, ...(Array.isArray(raw.parameters) ? raw.parameters : [])]
        .map((parameter) => resolveRef(document, parameter) as SchemaObject)
        .map((parameter) => ({
          name: String(parameter.name),
          in: parameter.in as ParameterLocation,
          required: parameter.required === true,
          schema: (parameter.schema as JsonSchema | undefined) ?? {},
          ...(typeof parameter.description === 'string' ? { description: parameter.description } : {}),
        }));
      const requestBody = raw.requestBody ? (resolveRef(document, raw.requestBody) as SchemaObject) : null;
      const responses: Record<string, ResponseObject> = {};
      for (const [status, response] of Object.entries(isObject(raw.responses) ? raw.responses : {})) {
        responses[status] = resolveRef(document, response) as ResponseObject;
      }
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        tags: Array.isArray(raw.tags) ? raw.tags.map(String) : [],
        parameters,
        body: requestBody
          ? { required: requestBody.required === true, content: (isObject(requestBody.content) ? requestBody.content : {}) as Record<string, MediaType> }
          : null,
        responses,
        security: (raw.security ?? document.security) as Operation['security'],
        idempotent: parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key'),
      });
    }
  }
  return operations;
}

/** The documented response for a status: the exact code, then its range (`4XX`), then `default`. */
export function documentedResponse(operation: Operation, status: number): { key: string; response: ResponseObject } | null {
  for (const key of [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default']) {
    const response = operation.responses[key];
    if (response) return { key, response };
  }
  return null;
}

/** The success statuses an operation documents (2xx codes or the 2XX range). */
export function successStatuses(operation: Operation): string[] {
  return Object.keys(operation.responses).filter((status) => /^2(\d\d|XX)$/i.test(status));
}

/** The JSON schema a response documents, if it documents one. */
export function jsonSchemaOf(response: ResponseObject): JsonSchema | undefined {
  const media = Object.entries(response.content ?? {}).find(([type]) => /^application\/(.+\+)?json/.test(type));
  return media?.[1].schema;
}

/** Fastify's `/users/:id` as the document writes it: `/users/{id}`. */
export const openApiPath = (fastifyUrl: string): string => fastifyUrl.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

// ---------------------------------------------------------------- the request contract

export interface Unconstrained {
  /** Where the string is: `body.name`, `query.search`, `path.id`, `header.x`. */
  where: string;
  /** Why it lets any text through. */
  why: string;
}

/**
 * Every place in a request schema where a string is accepted without a `pattern`, `format`, `enum`
 * or `const`: such a field lets control characters (a NUL, which PostgreSQL cannot store) through
 * to the service. A schema with no type at all (`{}`) accepts any string too.
 */
export function unconstrainedStrings(document: OpenApiDocument, schema: JsonSchema | undefined, where: string, depth = 0): Unconstrained[] {
  if (schema === undefined || schema === false || depth > 30) return [];
  if (schema === true) return [{ where, why: 'accepts anything (schema `true`)' }];
  const resolved = resolveRef(document, schema);
  if (!isObject(resolved)) return [];
  const found: Unconstrained[] = [];
  // Each branch of anyOf/oneOf must hold on its own; allOf parts only add to the schema they sit in.
  const branches = ['anyOf', 'oneOf'].flatMap((keyword) => (Array.isArray(resolved[keyword]) ? (resolved[keyword] as JsonSchema[]) : []));
  branches.forEach((branch, index) => found.push(...unconstrainedStrings(document, branch, `${where}<${index}>`, depth + 1)));
  // zod writes a second regex as `allOf: [{ pattern }, { pattern }]`: those constrain the string too;
  // and a described component field is `allOf: [{ $ref }]` with its description (plugins/openapi.ts).
  const allOf = Array.isArray(resolved.allOf) ? (resolved.allOf as unknown[]).map((part) => resolveRef(document, part)).filter(isObject) : [];
  const parts = [resolved, ...allOf];
  const types = parts.flatMap((part) => (Array.isArray(part.type) ? (part.type as string[]) : typeof part.type === 'string' ? [part.type] : []));
  const constrained = parts.some((part) => ['pattern', 'format', 'enum', 'const'].some((keyword) => part[keyword] !== undefined));
  if (types.includes('string') && !constrained) found.push({ where, why: 'a string with no pattern, format, enum or const' });
  const structural = parts.some((part) =>
    ['properties', 'items', 'prefixItems', 'additionalProperties', 'not', '$ref'].some((keyword) => part[keyword] !== undefined),
  );
  if (types.length === 0 && branches.length === 0 && !constrained && !structural) found.push({ where, why: 'no type at all: any string passes' });
  for (const part of parts) {
    if (!isObject(part.properties)) continue;
    for (const [name, property] of Object.entries(part.properties)) {
      found.push(...unconstrainedStrings(document, property as JsonSchema, `${where}.${name}`, depth + 1));
    }
  }
  if (resolved.items !== undefined) found.push(...unconstrainedStrings(document, resolved.items as JsonSchema, `${where}[]`, depth + 1));
  if (Array.isArray(resolved.prefixItems)) {
    (resolved.prefixItems as JsonSchema[]).forEach((item, index) => found.push(...unconstrainedStrings(document, item, `${where}[${index}]`, depth + 1)));
  }
  if (isObject(resolved.additionalProperties) || resolved.additionalProperties === true) {
    found.push(...unconstrainedStrings(document, resolved.additionalProperties as JsonSchema, `${where}.*`, depth + 1));
  }
  return found;
}

/** The unconstrained strings of every request part of an operation. */
export function unconstrainedRequestStrings(document: OpenApiDocument, operation: Operation): Unconstrained[] {
  const found: Unconstrained[] = [];
  for (const parameter of operation.parameters) {
    found.push(...unconstrainedStrings(document, parameter.schema, `${parameter.in}.${parameter.name}`));
  }
  for (const [type, media] of Object.entries(operation.body?.content ?? {})) {
    const schema = resolveRef(document, media.schema);
    if (type.startsWith('multipart/') && isObject(schema) && isObject(schema.properties)) {
      // A file part is bytes, not text: only the text parts of a form are held to the rule.
      for (const [name, property] of Object.entries(schema.properties)) {
        const part = resolveRef(document, property);
        if (isObject(part) && (part.format === 'binary' || part.contentMediaType !== undefined || part.contentEncoding !== undefined)) continue;
        found.push(...unconstrainedStrings(document, property as JsonSchema, `body.${name}`));
      }
    } else {
      found.push(...unconstrainedStrings(document, media.schema, 'body'));
    }
  }
  return found;
}

// ---------------------------------------------------------------- descriptions

/** Where a request property is (`body.to.kind`, `query.page`, `path.id`) that the document does not explain. */
export interface Undescribed {
  where: string;
}

const hasText = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

/**
 * Every property of a request schema, at any depth (through `$ref`s, anyOf/oneOf/allOf branches,
 * array items and additional properties), that has no description: an integrator reading the
 * document sees only its name. A `$ref` described where it is used counts (its siblings apply).
 */
export function undescribedProperties(document: OpenApiDocument, schema: JsonSchema | undefined, where: string, depth = 0): Undescribed[] {
  if (schema === undefined || typeof schema === 'boolean' || depth > 30) return [];
  const resolved = resolveRef(document, schema);
  if (!isObject(resolved)) return [];
  const found: Undescribed[] = [];
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    const branches = Array.isArray(resolved[keyword]) ? (resolved[keyword] as JsonSchema[]) : [];
    branches.forEach((branch, index) => found.push(...undescribedProperties(document, branch, `${where}<${index}>`, depth + 1)));
  }
  if (isObject(resolved.properties)) {
    for (const [name, property] of Object.entries(resolved.properties)) {
      const described = resolveRef(document, property);
      if (!isObject(described) || !hasText(described.description)) found.push({ where: `${where}.${name}` });
      found.push(...undescribedProperties(document, property as JsonSchema, `${where}.${name}`, depth + 1));
    }
  }
  if (resolved.items !== undefined) found.push(...undescribedProperties(document, resolved.items as JsonSchema, `${where}[]`, depth + 1));
  if (Array.isArray(resolved.prefixItems)) {
    (resolved.prefixItems as JsonSchema[]).forEach((item, index) => found.push(...undescribedProperties(document, item, `${where}[${index}]`, depth + 1)));
  }
  if (isObject(resolved.additionalProperties)) {
    found.push(...undescribedProperties(document, resolved.additionalProperties as JsonSchema, `${where}.*`, depth + 1));
  }
  return found;
}

/** The path and query parameters, and the body's properties at any depth, of an operation that carry no description. */
export function undescribedRequestProperties(document: OpenApiDocument, operation: Operation): Undescribed[] {
  const found: Undescribed[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const schema = resolveRef(document, parameter.schema);
    const where = `${parameter.in}.${parameter.name}`;
    if (!hasText(parameter.description) && !(isObject(schema) && hasText(schema.description))) found.push({ where });
    found.push(...undescribedProperties(document, parameter.schema, where));
  }
  for (const [type, media] of Object.entries(operation.body?.content ?? {})) {
    found.push(...undescribedProperties(document, media.schema, type === 'application/json' ? 'body' : `body(${type})`));
  }
  return found;
}
