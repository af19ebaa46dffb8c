import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestContext } from '../support/app';
import {
  jsonSchemaOf,
  type OpenApiDocument,
  openApiPath,
  type Operation,
  operationsOf,
  resolveRef,
  type SchemaObject,
  successStatuses,
  unconstrainedRequestStrings,
  undescribedRequestProperties,
} from '../support/fuzz/document';
import { type RegisteredRoute, type RouteProbe, watchRoutes, withoutHeadTwins } from '../support/fuzz/routes';

let ctx: TestContext;
let probe: RouteProbe;
let document: OpenApiDocument;
let operations: Operation[];
/** The /api routes Fastify registered, but the document and its reader. */
let apiRoutes: RegisteredRoute[];

beforeAll(async () => {
  probe = watchRoutes();
  try {
    ctx = await createTestApp({ seedDemo: false });
  } finally {
    probe.stop();
  }
  const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  document = json<OpenApiDocument>(response);
  operations = operationsOf(document);
  apiRoutes = withoutHeadTwins(probe.routes).filter(
    (route) => route.url.startsWith('/api/') && route.url !== '/api/openapi.json' && route.url !== '/api/docs' && !route.url.startsWith('/api/docs/'),
  );
});
afterAll(async () => ctx?.close());

const keyOf = (method: string, url: string) => `${method.toUpperCase()} ${openApiPath(url)}`;
const isObject = (value: unknown): value is SchemaObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (items: string[]) => items.map((item) => `\n  ${item}`).join('');

describe('GET /api/openapi.json', () => {
  it('is served to anyone (no sign-in) as JSON that an OpenAPI 3.1 validator accepts', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    // The validator dereferences in place: it gets its own copy.
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('writes every path in full, /api/... with {param}', () => {
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !/^\/api\/[A-Za-z0-9\-_/{}.]+$/.test(path) || path.includes(':'))).toEqual([]);
    const declared = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const operation of operations) {
      const parameters = operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
      expect(parameters.sort(), `${operation.key}: path parameters`).toEqual(declared(operation.path).sort());
    }
  });

  it('names the two ways to sign in: the session cookie and a bearer token', () => {
    const schemes = document.components?.securitySchemes ?? {};
    expect(schemes.cookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'll_session' });
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Every operation either needs no sign-in or accepts either scheme.
    const other = operations.filter(
      (operation) =>
        operation.security === undefined ||
        (operation.security.length > 0 && !operation.security.every((requirement) => Object.keys(requirement).every((name) => name in schemes))),
    );
    expect(
      other.map((operation) => operation.key),
      'operations without a security declaration',
    ).toEqual([]);
  });

  it('lists the health check, and neither /metrics nor /dev/mailbox', () => {
    expect(document.paths['/api/health']?.get).toBeDefined();
    expect(Object.keys(document.paths).filter((path) => /metrics|\/dev\//.test(path))).toEqual([]);
  });

  it('documents the Idempotency-Key header, required, on every money call', () => {
    const moneyCalls = apiRoutes.filter((route) => route.idempotent).map((route) => keyOf(route.method, route.url));
    expect(moneyCalls.length).toBeGreaterThan(0);
    const undocumented = moneyCalls.filter((key) => {
      const operation = operations.find((candidate) => candidate.key === key);
      return !operation?.parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key' && parameter.required);
    });
    expect(undocumented, `money calls without a required Idempotency-Key header:${list(undocumented)}`).toEqual([]);
    // And nothing else claims to be one.
    const claimed = operations.filter((operation) => operation.idempotent).map((operation) => operation.key);
    expect(claimed.sort()).toEqual([...moneyCalls].sort());
  });

  it('describes exactly the /api routes the app registered, none missing, none extra', () => {
    const registered = new Set(apiRoutes.map((route) => keyOf(route.method, route.url)));
    const documented = new Set(operations.map((operation) => operation.key));
    const missing = [...registered].filter((key) => !documented.has(key));
    const extra = [...documented].filter((key) => !registered.has(key));
    expect(missing, `registered but not documented:${list(missing)}`).toEqual([]);
    expect(extra, `documented but not registered:${list(extra)}`).toEqual([]);
  });

  it('gives every operation a schema for its success answer and the error shape for its failures', () => {
    const problems = new Map<string, string[]>();
    const note = (key: string, problem: string) => problems.set(key, [...(problems.get(key) ?? []), problem]);
    for (const route of apiRoutes) {
      if (!route.hasSuccessSchema) note(keyOf(route.method, route.url), 'the route declares no 2xx response schema');
    }
    for (const operation of operations) {
      const successes = successStatuses(operation);
      const withoutSchema = successes.filter((status) => jsonSchemaOf(operation.responses[status]!) === undefined && !hasBinaryContent(operation, status));
      if (successes.length === 0) note(operation.key, 'no success status documented');
      else if (withoutSchema.length > 0) note(operation.key, `no schema for ${withoutSchema.join(', ')}`);
      const failure = operation.responses['4XX'] ?? operation.responses.default;
      if (!failure || !isErrorShape(jsonSchemaOf(failure))) note(operation.key, 'failures (4XX) not documented as { message, code, fields? }');
    }
    const offenders = [...problems.entries()].map(([key, found]) => `${key}: ${found.join('; ')}`);
    expect(offenders, `${offenders.length} operation(s) answer what the document does not describe:${list(offenders)}`).toEqual([]);
  });

  it('refuses control characters in every request string: each has a pattern, format, enum or const', () => {
    const offenders = operations.flatMap((operation) =>
      unconstrainedRequestStrings(document, operation).map((found) => `${operation.key} ${found.where}: ${found.why}`),
    );
    expect(offenders, `${offenders.length} request string(s) would let a NUL through:${list(offenders)}`).toEqual([]);
  });

  it('explains every request property: each path and query parameter and each body property, at any depth, has a description', () => {
    const requestParts = operations.flatMap((operation) => [
      ...operation.parameters.filter((parameter) => parameter.in === 'path' || parameter.in === 'query'),
      ...Object.values(operation.body?.content ?? {}),
    ]);
    // A test that walks nothing proves nothing: the document has parameters and bodies to read.
    expect(requestParts.length).toBeGreaterThan(100);
    const offenders = operations.flatMap((operation) => undescribedRequestProperties(document, operation).map((found) => `${operation.key} ${found.where}`));
    expect(offenders, `${offenders.length} request propert(ies) without a description:${list(offenders)}`).toEqual([]);
  });
});

function hasBinaryContent(operation: Operation, status: string): boolean {
  return Object.keys(operation.responses[status]?.content ?? {}).some((type) =>
    /^(image|application\/pdf|application\/octet-stream|application\/x-ofx|text\/csv)/.test(type),
  );
}

function isErrorShape(schema: unknown): boolean {
  const resolved = resolveRef(document, schema);
  if (!isObject(resolved) || !isObject(resolved.properties)) return false;
  const required = Array.isArray(resolved.required) ? resolved.required : [];
  return required.includes('message') && required.includes('code') && 'fields' in resolved.properties;
}

describe('GET /api/docs', () => {
  it('serves a reader of the document from the bank itself, under a strict CSP that names no other host', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy'] ?? '');
    const directives = new Map(
      csp
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map(([name, ...sources]) => [name!, sources]),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    const allowed = new Set(["'self'", "'none'", "'unsafe-inline'", 'data:', 'blob:']);
    const others = [...directives.entries()].flatMap(([name, sources]) =>
      sources.filter((source) => !allowed.has(source)).map((source) => `${name} ${source}`),
    );
    expect(others, 'sources other than the bank itself').toEqual([]);
    // Inline styles only: an inline script would be refused by this policy.
    expect([...directives.entries()].filter(([, sources]) => sources.includes("'unsafe-inline'")).map(([name]) => name)).toEqual(['style-src']);

    const html = page.body;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
    const assets = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => new URL(match[1]!, 'http://bank.test/api/docs/').pathname);
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.filter((asset) => !asset.startsWith('/api/docs/'))).toEqual([]);
    for (const asset of assets) {
      const response = await ctx.app.inject({ method: 'GET', url: asset });
      expect(response.statusCode, asset).toBe(200);
      const type = String(response.headers['content-type']);
      if (asset.endsWith('.js')) expect(type, asset).toMatch(/javascript/);
      if (asset.endsWith('.css')) expect(type, asset).toMatch(/^text\/css/);
      if (asset.endsWith('.png')) expect(type, asset).toMatch(/^image\/png/);
    }
    // The reader loads the same document, from the bank (connect-src 'self' allows nothing else).
    const readerDocument = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json(readerDocument)).toEqual(document);
  });
});
