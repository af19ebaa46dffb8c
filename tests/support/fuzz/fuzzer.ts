import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import type { TestContext } from '../app';
import { file, type FilePart, multipart, pdf, png } from '../multipart';
import { arbitraryFor } from './arbitrary';
import { type JsonSchema, type OpenApiDocument, type Operation, resolveRef, type SchemaObject } from './document';
import {
  deepJson,
  deepObjectJson,
  encodeUrlText,
  HOSTILE_HEADER_VALUES,
  HOSTILE_STRINGS,
  HOSTILE_URL_VALUES,
  HOSTILE_VALUES,
  seededRandom,
  violationsOf,
} from './hostile';
import { DIFFERENT_FROM, fieldHints, SAME_AS } from './hints';
import { responseChecker, valueChecker } from './responses';
import type { RouteProbe } from './routes';
import { endsOtherSessions, endsSession, type Person, realIdFor, World } from './world';

export type Actor = 'anonymous' | 'customer' | 'staff';

/** What a request tries. Most are valid; the rest each break one thing. */
export type Kind =
  'valid' | 'signed out' | 'other role' | 'hostile value' | 'schema violation' | 'missing field' | "someone else's id" | 'body attack' | 'header attack';

/** 24 requests per operation: 13 valid, 11 that each break one thing. */
const SCHEDULE: Kind[] = [
  ...Array<Kind>(13).fill('valid'),
  'signed out',
  'other role',
  'hostile value',
  'hostile value',
  'hostile value',
  'hostile value',
  'schema violation',
  'missing field',
  "someone else's id",
  'body attack',
  'header attack',
];

export interface OperationStats {
  operation: string;
  requests: number;
  reached: number;
  statuses: Record<number, number>;
}

export interface Violation {
  operation: string;
  request: string;
  /** Short and stable, to count alike problems: 'server error 500', 'status 400 is not documented'... */
  kind: string;
  problem: string;
}

export interface FuzzReport {
  stats: OperationStats[];
  violations: Violation[];
  /** Operations sent as multipart although the document does not say so (it documents no body). */
  undocumentedMultipart: string[];
}

/**
 * Multipart forms the document may not describe yet (a route without a body schema): the field
 * names and which are files. When the document does describe a form, the document wins.
 */
const MULTIPART_FALLBACK: Record<string, { files: Record<string, 'image' | 'image_or_pdf'>; fields: Record<string, JsonSchema> }> = {
  'POST /api/user/verification': {
    files: { passportImageFile: 'image', documentFile: 'image_or_pdf', proofOfAddressFile: 'image_or_pdf' },
    fields: { documentType: { type: 'string', enum: ['passport', 'national_id', 'drivers_license'] }, dateOfBirth: { type: 'string', format: 'date' } },
  },
  'PATCH /api/user/profile-picture': { files: { profilePicture: 'image' }, fields: {} },
};

interface Draft {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
}

interface Form {
  files: Record<string, 'image' | 'image_or_pdf'>;
  fields: Record<string, JsonSchema>;
  required: string[];
}

interface Built {
  actor: Actor;
  kind: Kind;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Set when the request points a customer at another customer's object. */
  foreignObject: boolean;
  note: string;
}

/** A well-formed id nothing has. */
const NOBODY_ID = '9b1d0c1a-2b3c-4a55-9d7e-0b6c4c1e2f7a';

const isObject = (value: unknown): value is SchemaObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const JSON_TYPE = 'application/json';

/** Whether an operation is for bank staff: tagged so, or under an admin path. */
const looksStaff = (operation: Operation) => operation.tags.includes('staff') || /\/admin(\/|$)/.test(operation.path);
const isPublic = (operation: Operation) => Array.isArray(operation.security) && operation.security.length === 0;
const hasBodyMethod = (method: string) => !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method);

/** Paths to every leaf and object of a JSON value (`[]` is the value itself). */
function locations(value: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (depth > 6) return [];
  if (Array.isArray(value)) return [prefix, ...value.flatMap((item, index) => locations(item, [...prefix, String(index)], depth + 1))];
  if (isObject(value)) return [prefix, ...Object.entries(value).flatMap(([key, item]) => locations(item, [...prefix, key], depth + 1))];
  return [prefix];
}

function setAt(value: unknown, path: string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) return value.map((item, index) => (String(index) === head ? setAt(item, rest, replacement) : item));
  if (isObject(value)) return { ...value, [head]: setAt(value[head], rest, replacement) };
  return value;
}

export class Fuzzer {
  private readonly random;
  private readonly check;
  private readonly fits;
  private readonly world: World;
  private other: Person | undefined;
  private keySequence = 0;
  readonly report: FuzzReport = { stats: [], violations: [], undocumentedMultipart: [] };

  constructor(
    private readonly ctx: TestContext,
    private readonly document: OpenApiDocument,
    private readonly probe: RouteProbe,
    private readonly options: { seed: number; requestsPerOperation: number; trace?: RegExp },
  ) {
    this.random = seededRandom(options.seed);
    this.check = responseChecker(document);
    this.fits = valueChecker(document);
    this.world = new World(ctx);
  }

  private resolve = (schema: unknown) => resolveRef(this.document, schema);

  /** Someone else: a customer with one of everything, whose ids the fuzzer's customers must not reach. */
  private async otherPerson(): Promise<Person> {
    if (!this.other) {
      const other = await this.world.newCustomer();
      for (const make of [this.world.loanId, this.world.cardRequestId, this.world.payeeId, this.world.kycFileId, this.world.withProfilePicture])
        await make(other);
      this.other = other;
    }
    return this.other;
  }

  private formOf(operation: Operation): Form | null {
    const media = Object.entries(operation.body?.content ?? {}).find(([type]) => type.startsWith('multipart/form-data'));
    const fallback = MULTIPART_FALLBACK[operation.key];
    const schema = media ? this.resolve(media[1].schema) : undefined;
    if (media && isObject(schema) && isObject(schema.properties)) {
      const form: Form = { files: {}, fields: {}, required: Array.isArray(schema.required) ? schema.required.map(String) : [] };
      for (const [name, property] of Object.entries(schema.properties)) {
        const part = this.resolve(property);
        const isFile =
          (isObject(part) && (part.format === 'binary' || part.contentMediaType !== undefined || part.contentEncoding !== undefined)) ||
          fallback?.files[name] !== undefined;
        if (isFile) form.files[name] = fallback?.files[name] ?? (/pdf/.test(String(isObject(part) ? part.contentMediaType : '')) ? 'image_or_pdf' : 'image');
        else form.fields[name] = property as JsonSchema;
      }
      return form;
    }
    // A form the document does not describe (no body, or a multipart body without properties).
    if (!fallback || (operation.body && !media)) return null;
    if (!this.report.undocumentedMultipart.includes(operation.key)) this.report.undocumentedMultipart.push(operation.key);
    return { ...fallback, required: [...Object.keys(fallback.files), ...Object.keys(fallback.fields)] };
  }

  private jsonBodySchema(operation: Operation): JsonSchema | undefined {
    const media = Object.entries(operation.body?.content ?? {}).find(([type]) => /json/.test(type));
    return media?.[1].schema;
  }

  private draftArbitrary(operation: Operation, form: Form | null): fc.Arbitrary<Draft> {
    const options = { resolve: this.resolve };
    const group = (where: string) => {
      const parameters = operation.parameters.filter((parameter) => parameter.in === where);
      const model = Object.fromEntries(parameters.map((parameter) => [parameter.name, arbitraryFor(parameter.schema, options)]));
      return fc.record(model, { requiredKeys: parameters.filter((parameter) => parameter.required || where === 'path').map((parameter) => parameter.name) });
    };
    const jsonSchema = this.jsonBodySchema(operation);
    const body = form
      ? fc.record(Object.fromEntries(Object.entries(form.fields).map(([name, schema]) => [name, arbitraryFor(schema, options)])))
      : jsonSchema !== undefined
        ? arbitraryFor(jsonSchema, options)
        : fc.constant(undefined);
    return fc.record({ path: group('path'), query: group('query'), headers: group('header'), body });
  }

  /** Fuzzes every operation of the document, one after the other. */
  async run(operations: Operation[]): Promise<FuzzReport> {
    for (const [index, operation] of operations.entries()) await this.fuzzOperation(operation, index);
    return this.report;
  }

  private async fuzzOperation(operation: Operation, index: number): Promise<void> {
    const form = this.formOf(operation);
    const drafts = fc.sample(this.draftArbitrary(operation, form), { seed: this.options.seed + index, numRuns: this.options.requestsPerOperation });
    const owner = await this.world.newCustomer();
    const other = await this.otherPerson();
    const staff = await this.world.staffToken();
    const stats: OperationStats = { operation: operation.key, requests: 0, reached: 0, statuses: {} };
    this.report.stats.push(stats);
    let preferred: Actor = isPublic(operation) ? 'anonymous' : looksStaff(operation) ? 'staff' : 'customer';
    const kinds = [...SCHEDULE];
    while (kinds.length < drafts.length) kinds.push('valid');
    // Shuffle once per operation (seeded): the breaking requests are spread among the valid ones.
    for (let i = kinds.length - 1; i > 0; i -= 1) {
      const j = this.random.int(i + 1);
      [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
    }
    let lastKey: string | undefined;
    for (const [slot, draft] of drafts.entries()) {
      const kind = kinds[slot] ?? 'valid';
      const built = await this.build(operation, form, draft, kind, preferred, owner, other, slot, lastKey);
      const token =
        built.actor === 'anonymous'
          ? null
          : endsSession(operation.path)
            ? built.actor === 'staff'
              ? await this.world.freshStaffToken()
              : await this.world.freshToken(owner)
            : built.actor === 'staff'
              ? staff
              : owner.token;
      const headers = { ...built.headers };
      // Both documented schemes: mostly the bearer token, now and then the session cookie.
      if (token && headers.authorization === undefined) {
        // A browser sends its page's Origin with the cookie (a state-changing call without one is refused).
        if (slot % 5 === 4) Object.assign(headers, { cookie: `ll_session=${token}`, origin: 'http://localhost' });
        else headers.authorization = `Bearer ${token}`;
      }
      if (operation.idempotent && built.kind === 'valid') lastKey = headers['idempotency-key'];
      const { response, reached } = await this.send({ ...built, headers });
      stats.requests += 1;
      stats.statuses[response.statusCode] = (stats.statuses[response.statusCode] ?? 0) + 1;
      if (reached) stats.reached += 1;
      // A valid request refused by the access check (not by the service) was sent by the wrong role.
      if (kind === 'valid' && response.statusCode === 403 && !reached && preferred !== 'anonymous') preferred = preferred === 'staff' ? 'customer' : 'staff';
      const describe = `${built.kind} as ${built.actor}: ${built.method} ${built.url.slice(0, 160)}${built.note ? ` (${built.note})` : ''}`;
      if (this.options.trace?.test(operation.key)) {
        console.log(
          `${describe}\n  sent ${String(built.payload ?? '').slice(0, 300)}\n  got ${response.statusCode} ${reached ? 'reached' : 'refused'} ${response.body.slice(0, 300)}`,
        );
      }
      const fail = (category: string, problem: string) => this.report.violations.push({ operation: operation.key, request: describe, kind: category, problem });
      if (response.statusCode >= 500) fail(`server error ${response.statusCode}`, `server error ${response.statusCode}: ${response.body.slice(0, 200)}`);
      const mismatch = this.check(operation, response);
      if (mismatch) fail(mismatch.replace(/:.*$/, '').replace(/ \(documented.*$/, ''), mismatch);
      if (built.foreignObject && built.actor === 'customer' && response.statusCode < 300) {
        fail("reached someone else's object", `a customer reached someone else's object (${response.statusCode})`);
      }
    }
    if (endsOtherSessions(operation.path)) this.world.forgetStaffSession();
  }

  /** Sends one request (requests go one at a time, so the probe's count tells whether this one reached its handler). */
  private async send(built: Built): Promise<{ response: LightMyRequestResponse; reached: boolean }> {
    const before = this.probe.reachedCount();
    const response = await this.ctx.app.inject({
      method: built.method as 'GET',
      url: built.url,
      headers: built.headers,
      ...(built.payload === undefined ? {} : { payload: built.payload }),
    });
    return { response, reached: this.probe.reachedCount() > before };
  }

  private freshKey(): string {
    this.keySequence += 1;
    return `fuzz-${this.options.seed}-${this.keySequence}-${randomBytes(4).toString('hex')}`;
  }

  private async build(
    operation: Operation,
    form: Form | null,
    draft: Draft,
    kind: Kind,
    preferred: Actor,
    owner: Person,
    other: Person,
    slot: number,
    lastKey: string | undefined,
  ): Promise<Built> {
    let actor: Actor = preferred;
    let note = '';
    let foreignObject = false;
    const path: Record<string, string> = {};
    const query: Record<string, unknown> = { ...draft.query };
    const headers: Record<string, string> = {};
    let body = draft.body;
    let raw: { payload: string | Buffer; type: string } | undefined;
    let dropBody = false;

    // Fields whose rules the document cannot carry get known-good values most of the time.
    if (isObject(body) && !form) {
      const properties = this.propertiesOf(this.jsonBodySchema(operation));
      const hinted: Record<string, unknown> = { ...body };
      // Most requests take every hint; the others keep what the document alone generated.
      const useHints = this.random.next() < 0.85;
      for (const [name, values] of Object.entries(fieldHints(owner, other))) {
        // Only hints the document itself accepts for the field (a `from` may be an account kind elsewhere).
        const fitting = name in properties ? values.filter((value) => this.fits(properties[name], value)) : [];
        if (useHints && fitting.length > 0 && (name in hinted || this.random.next() < 0.5)) hinted[name] = this.random.pick(fitting);
      }
      for (const [name, source] of Object.entries(SAME_AS)) if (name in hinted && source in hinted) hinted[name] = hinted[source];
      for (const [name, source] of Object.entries(DIFFERENT_FROM)) {
        const choices = this.resolve(properties[name]);
        const options = isObject(choices) && Array.isArray(choices.enum) ? choices.enum.filter((value) => value !== hinted[source]) : [];
        if (useHints && name in hinted && hinted[name] === hinted[source] && options.length > 0) hinted[name] = this.random.pick(options);
      }
      body = hinted;
    }

    const person = kind === "someone else's id" ? other : owner;
    for (const parameter of operation.parameters.filter((item) => item.in === 'path')) {
      const real = await realIdFor(this.world, operation.path, person);
      path[parameter.name] = real ?? String(draft.path[parameter.name] ?? 'x');
      if (kind === "someone else's id" && real !== undefined) foreignObject = true;
    }
    if (kind === "someone else's id" && !foreignObject) kind = 'hostile value';
    for (const [name, value] of Object.entries(draft.headers)) {
      if (name.toLowerCase() !== 'idempotency-key' && typeof value === 'string') headers[name] = value;
    }
    if (operation.idempotent) headers['idempotency-key'] = this.freshKey();

    // A form's text parts, and the name of its files; a JSON body's every leaf and object.
    const bodyLocations = form
      ? [...Object.keys(form.fields).map((name) => [name]), ...(Object.keys(form.files).length > 0 ? [['__fileName']] : [])]
      : locations(body);
    switch (kind) {
      case 'valid':
        break;
      case 'signed out':
        actor = preferred === 'anonymous' ? 'customer' : 'anonymous';
        break;
      case 'other role':
        actor = preferred === 'staff' ? 'customer' : 'staff';
        break;
      case 'hostile value':
      case 'schema violation': {
        const targets: Array<['path' | 'query' | 'body', string[]]> = [
          ...Object.keys(path).map((name) => ['path', [name]] as ['path', string[]]),
          ...operation.parameters.filter((item) => item.in === 'query').map((item) => ['query', [item.name]] as ['query', string[]]),
          ...(hasBodyMethod(operation.method) || operation.body ? bodyLocations : [])
            .filter((location) => location.length > 0 || !form)
            .map((location) => ['body', location] as ['body', string[]]),
        ];
        if (targets.length === 0) targets.push(['query', ['unexpected']]);
        const [where, location] = this.random.pick(targets);
        const value = kind === 'schema violation' ? this.random.pick(violationsOf(this.schemaAt(operation, form, where, location))) : undefined;
        if (where === 'path') path[location[0]!] = kind === 'hostile value' ? this.random.pick([...HOSTILE_URL_VALUES, NOBODY_ID]) : String(value);
        else if (where === 'query') query[location[0]!] = kind === 'hostile value' ? this.random.pick(HOSTILE_URL_VALUES) : value;
        else if (form) (body as Record<string, unknown>)[location[0]!] = kind === 'hostile value' ? this.random.pick(HOSTILE_STRINGS) : String(value);
        else body = setAt(body, location, kind === 'hostile value' ? this.random.pick(HOSTILE_VALUES) : value);
        note = `${where}.${location.join('.') || '(whole)'}`;
        break;
      }
      case 'missing field': {
        const required = form ? form.required : this.requiredOf(this.jsonBodySchema(operation));
        if (required.length > 0 && isObject(body)) {
          const name = this.random.pick(required);
          if (form?.files[name]) {
            body = { ...body, [`__drop_file_${name}`]: true };
            note = `no file ${name}`;
          } else {
            const { [name]: _dropped, ...rest } = body;
            body = rest;
            note = `no ${name}`;
          }
        } else {
          const requiredQuery = operation.parameters.find((item) => item.in === 'query' && item.required);
          if (requiredQuery) delete query[requiredQuery.name];
          else dropBody = true;
          note = requiredQuery ? `no ${requiredQuery.name}` : 'no body';
        }
        break;
      }
      case "someone else's id":
        note = 'the path names another customer';
        break;
      case 'body attack': {
        const attacks = hasBodyMethod(operation.method)
          ? form
            ? ['oversized file', 'disguised file', 'json instead of form', 'broken form']
            : ['deep arrays', 'deep objects', 'invalid json', 'top-level type', 'text/plain', 'prototype', 'too large']
          : ['long query', 'repeated query'];
        const attack = attacks[slot % attacks.length]!;
        note = attack;
        if (attack === 'deep arrays') raw = { payload: deepJson(8_000), type: JSON_TYPE };
        else if (attack === 'deep objects') raw = { payload: deepObjectJson(6_000), type: JSON_TYPE };
        else if (attack === 'invalid json') raw = { payload: '{"amount": 12,', type: JSON_TYPE };
        else if (attack === 'top-level type') raw = { payload: this.random.pick(['[]', '"text"', '42', 'null', 'true']), type: JSON_TYPE };
        else if (attack === 'text/plain') raw = { payload: 'amount=12', type: 'text/plain' };
        else if (attack === 'prototype') raw = { payload: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}', type: JSON_TYPE };
        else if (attack === 'too large') raw = { payload: JSON.stringify({ filler: 'x'.repeat(70_000) }), type: JSON_TYPE };
        else if (attack === 'json instead of form') raw = { payload: JSON.stringify(body ?? {}), type: JSON_TYPE };
        else if (attack === 'broken form')
          raw = { payload: '--nope\r\nContent-Disposition: form-data; name="x"\r\n\r\n', type: 'multipart/form-data; boundary=nope' };
        else if (attack === 'long query') query.filler = 'q'.repeat(20_000);
        else if (attack === 'repeated query')
          for (const parameter of operation.parameters.filter((item) => item.in === 'query')) query[parameter.name] = ['1', '2'];
        else if (form) (body as Record<string, unknown>)[`__attack`] = attack;
        break;
      }
      case 'header attack': {
        if (operation.idempotent) {
          const choice = slot % 3;
          if (choice === 0) delete headers['idempotency-key'];
          else if (choice === 1) headers['idempotency-key'] = this.random.pick(HOSTILE_HEADER_VALUES);
          else if (lastKey) {
            // The key of an earlier request with another body: a replay or a 409, never a second posting.
            headers['idempotency-key'] = lastKey;
          }
          note = choice === 0 ? 'no Idempotency-Key' : choice === 1 ? 'malformed Idempotency-Key' : 'reused Idempotency-Key';
        } else {
          headers.authorization = this.random.pick(['Bearer', 'Bearer ', `Bearer ${'x'.repeat(5_000)}`, 'Basic YWRtaW46YWRtaW4=', 'Bearer not-a-token']);
          note = 'malformed Authorization';
        }
        break;
      }
    }

    let url = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeUrlText(path[name] ?? ''));
    const search = Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map(
          (item) => `${encodeUrlText(name)}=${encodeUrlText(typeof item === 'string' ? item : JSON.stringify(item))}`,
        ),
      )
      .join('&');
    if (search) url += `?${search}`;

    let payload: string | Buffer | undefined;
    if (raw) {
      payload = raw.payload;
      headers['content-type'] = raw.type;
    } else if (form && !dropBody) {
      const built = await this.formPayload(form, body as Record<string, unknown>);
      payload = built.payload;
      Object.assign(headers, built.headers);
    } else if (body !== undefined && !dropBody && (hasBodyMethod(operation.method) || operation.body)) {
      payload = JSON.stringify(body);
      headers['content-type'] = JSON_TYPE;
    }
    return { actor, kind, method: operation.method, url, headers, payload, foreignObject, note };
  }

  private propertiesOf(schema: JsonSchema | undefined): Record<string, unknown> {
    const resolved = this.resolve(schema);
    return isObject(resolved) && isObject(resolved.properties) ? resolved.properties : {};
  }

  private requiredOf(schema: JsonSchema | undefined): string[] {
    const resolved = this.resolve(schema);
    return isObject(resolved) && Array.isArray(resolved.required) ? resolved.required.map(String) : [];
  }

  private schemaAt(operation: Operation, form: Form | null, where: 'path' | 'query' | 'body', location: string[]): SchemaObject {
    if (where !== 'body') {
      const parameter = operation.parameters.find((item) => item.in === where && item.name === location[0]);
      const schema = this.resolve(parameter?.schema);
      return isObject(schema) ? schema : {};
    }
    let schema = this.resolve(form ? form.fields[location[0]!] : this.jsonBodySchema(operation));
    for (const segment of form ? [] : location) {
      if (!isObject(schema)) return {};
      const next: unknown = isObject(schema.properties) ? schema.properties[segment] : schema.items;
      schema = this.resolve(next);
    }
    return isObject(schema) ? schema : {};
  }

  private async formPayload(form: Form, body: Record<string, unknown>): Promise<{ payload: Buffer; headers: Record<string, string> }> {
    const parts: Record<string, string | FilePart> = {};
    const attack = body.__attack;
    for (const [name, kind] of Object.entries(form.files)) {
      if (body[`__drop_file_${name}`]) continue;
      const fileName = typeof body.__fileName === 'string' ? body.__fileName : undefined;
      if (attack === 'oversized file') parts[name] = file('huge.png', 'image/png', Buffer.alloc(6 * 1024 * 1024, 0x41));
      else if (attack === 'disguised file') parts[name] = file('photo.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>'));
      else if (kind === 'image_or_pdf' && this.random.next() < 0.5) parts[name] = file(fileName ?? 'document.pdf', 'application/pdf', pdf());
      else parts[name] = file(fileName ?? 'photo.png', 'image/png', await this.png());
    }
    for (const name of Object.keys(form.fields).filter((field) => !field.startsWith('__'))) {
      const value = body[name];
      if (value !== undefined) parts[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    return multipart(parts);
  }

  private pngCache: Buffer | undefined;
  private async png(): Promise<Buffer> {
    this.pngCache ??= await png();
    return this.pngCache;
  }
}
