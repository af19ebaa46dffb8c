import fc from 'fast-check';
import type { JsonSchema, SchemaObject } from './document';

/**
 * A small JSON Schema (2020-12, as the OpenAPI 3.1 document writes it) -> fast-check generator of
 * values the schema accepts. It covers what the bank's contracts use: type (one or several),
 * enum, const, anyOf/oneOf/allOf, properties/required, items/minItems/maxItems,
 * minLength/maxLength, pattern, format (date, date-time, email, uuid), minimum/maximum (exclusive
 * too) and multipleOf. `examples` are offered first when present. zod-fast-check does not support
 * zod 4, and generating from the document tests the document too.
 *
 * A JSON Schema cannot say everything a zod contract checks (refinements, trimming), so a value
 * from here passes the document but may still be refused by the contract: such a request simply
 * does not count as having reached the service.
 */

export interface GenerateOptions {
  /** Resolves a `$ref` (the document's components). */
  resolve: (schema: unknown) => unknown;
  /** Strings are generated at most this long unless the schema asks for more (requests stay small). */
  lengthCap?: number;
}

const isObject = (value: unknown): value is SchemaObject => typeof value === 'object' && value !== null && !Array.isArray(value);

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Calendar dates as the bank accepts them: around today (value dates lie within a year of it),
 * adult birth dates, and anything between 1900 and 2100.
 */
export const realDate = (): fc.Arbitrary<string> => {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -300, max: 300 }).map((days) => isoDay(today + days * DAY_MS)) },
    { weight: 2, arbitrary: fc.integer({ min: Date.UTC(1940, 0, 1) / DAY_MS, max: Date.UTC(2005, 0, 1) / DAY_MS }).map((day) => isoDay(day * DAY_MS)) },
    { weight: 1, arbitrary: fc.integer({ min: Date.UTC(1900, 0, 1) / DAY_MS, max: Date.UTC(2100, 11, 31) / DAY_MS }).map((day) => isoDay(day * DAY_MS)) },
  );
};

const dateTime = (): fc.Arbitrary<string> => fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }).map((ms) => new Date(ms).toISOString());

const word = fc.stringMatching(/^[a-z][a-z0-9]{1,10}$/);
const email = (): fc.Arbitrary<string> =>
  fc.tuple(word, word, fc.constantFrom('example.com', 'example.org', 'mail.test')).map(([a, b, domain]) => `${a}.${b}@${domain}`);

/** Readable text: ASCII words, sometimes accented letters, other scripts or an emoji (all valid text). */
const text = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.'#/-]{0,40}$/) },
    { weight: 1, arbitrary: fc.constantFrom('Zoë Ørsted', 'Łódź', '東京都', 'Café ☕ déjà vu', 'Ngozi Ọkọnkwọ', 'مرحبا', '🏦 Bank') },
  );

/** A pattern that only forbids characters (`^[^...]*$`): any readable text that passes it will do. */
const FORBIDS_ONLY = /^\^\[\^[^\]]*\]\*\$$/;
/** The date pattern the contracts use for YYYY-MM-DD. */
/** Where merged allOf parts keep every pattern they had. */
const EXTRA_PATTERNS = 'x-all-patterns';
const DATE_PATTERNS = new Set(['^\\d{4}-\\d{2}-\\d{2}$', '^[0-9]{4}-[0-9]{2}-[0-9]{2}$']);

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

function stringArbitrary(schema: SchemaObject, options: GenerateOptions): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const schemaMax = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const maxLength = Math.max(minLength, Math.min(schemaMax, options.lengthCap ?? 60));
  const fits = (value: string) => value.length >= minLength && value.length <= schemaMax;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  const matches = pattern ? compile(pattern) : undefined;
  const all = (Array.isArray(schema[EXTRA_PATTERNS]) ? (schema[EXTRA_PATTERNS] as string[]) : []).map(compile);
  const passes = (value: string) => fits(value) && (!matches || matches.test(value)) && all.every((regex) => regex.test(value));
  let base: fc.Arbitrary<string>;
  switch (schema.format) {
    case 'date':
      base = realDate();
      break;
    case 'date-time':
      base = dateTime();
      break;
    case 'email':
      base = email();
      break;
    case 'uuid':
      base = fc.uuid();
      break;
    case 'uri':
    case 'url':
      base = word.map((path) => `https://example.com/${path}`);
      break;
    default:
      if (pattern && DATE_PATTERNS.has(pattern)) base = realDate();
      else if (pattern && !FORBIDS_ONLY.test(pattern) && matches) base = fc.stringMatching(matches, { maxLength: Math.max(maxLength, 1) });
      else if (minLength > 60) base = fc.string({ unit: 'grapheme-ascii', minLength, maxLength });
      else base = text();
  }
  // Fit the lengths without a filter that could reject forever: pad short text, cut long text.
  return base
    .map((value) => (value.length < minLength ? value.padEnd(minLength, 'x') : value.length > maxLength ? value.slice(0, maxLength) : value))
    .filter(passes);
}

function numberArbitrary(schema: SchemaObject, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMinimum = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMaximum = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  const minimum = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const maximum = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : integer ? 1 : undefined;
  const low = Math.max(minimum ?? -Infinity, exclusiveMinimum ?? -Infinity);
  const high = Math.min(maximum ?? Infinity, exclusiveMaximum ?? Infinity);
  if (step !== undefined) {
    const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
    let first = Number.isFinite(low) ? Math.ceil(low / step - 1e-9) : -1000;
    if (exclusiveMinimum !== undefined && first * step <= exclusiveMinimum) first += 1;
    let last = Number.isFinite(high) ? Math.floor(high / step + 1e-9) : first + 1_000_000;
    if (exclusiveMaximum !== undefined && last * step >= exclusiveMaximum) last -= 1;
    first = Math.max(first, -Number.MAX_SAFE_INTEGER);
    last = Math.min(last, Number.MAX_SAFE_INTEGER);
    const small = Math.min(last, first + 100_000);
    return fc
      .oneof({ weight: 3, arbitrary: fc.integer({ min: first, max: small }) }, { weight: 1, arbitrary: fc.integer({ min: first, max: last }) })
      .map((count) => Number((count * step).toFixed(decimals)));
  }
  return fc
    .double({
      min: Number.isFinite(low) ? low : -1e6,
      max: Number.isFinite(high) ? high : 1e6,
      minExcluded: exclusiveMinimum !== undefined,
      maxExcluded: exclusiveMaximum !== undefined,
      noNaN: true,
      noDefaultInfinity: true,
    })
    .filter((value) => !Object.is(value, -0));
}

function typesOf(schema: SchemaObject): string[] {
  if (Array.isArray(schema.type)) return schema.type.map(String);
  if (typeof schema.type === 'string') return [schema.type];
  if (isObject(schema.properties) || schema.required !== undefined) return ['object'];
  if (schema.items !== undefined) return ['array'];
  if (schema.pattern !== undefined || schema.format !== undefined || schema.minLength !== undefined) return ['string'];
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return ['number'];
  return [];
}

/** A generator of values that `schema` accepts. */
export function arbitraryFor(input: JsonSchema | undefined, options: GenerateOptions, depth = 0): fc.Arbitrary<unknown> {
  if (input === undefined || input === true) return fc.oneof(text(), fc.integer({ min: 0, max: 1000 }), fc.boolean());
  if (input === false) throw new Error('a schema that accepts nothing (false) cannot be generated');
  const schema = options.resolve(input) as SchemaObject;
  if (!isObject(schema)) return fc.constant(schema);
  if (depth > 12) return fc.constant(null);
  const next = (child: unknown) => arbitraryFor(child as JsonSchema, options, depth + 1);

  let generated: fc.Arbitrary<unknown>;
  if (schema.const !== undefined) generated = fc.constant(schema.const);
  else if (Array.isArray(schema.enum) && schema.enum.length > 0) generated = fc.constantFrom(...(schema.enum as unknown[]));
  else if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const branches = (Array.isArray(schema.anyOf) ? schema.anyOf : (schema.oneOf as unknown[])).map((branch) => {
      // Keywords beside anyOf apply to every branch.
      const { anyOf: _anyOf, oneOf: _oneOf, examples: _examples, ...shared } = schema;
      const resolved = options.resolve(branch);
      return next(isObject(resolved) ? { ...shared, ...resolved } : resolved);
    });
    generated = fc.oneof(...branches);
  } else if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    // rest keeps its own pattern: mergeSchemas collects it with the parts' ones.
    const merged = (allOf as unknown[])
      .map((part) => options.resolve(part))
      .filter(isObject)
      .reduce<SchemaObject>(mergeSchemas, rest);
    generated = next(merged);
  } else {
    const types = typesOf(schema);
    const arbitraries = (types.length > 0 ? types : ['string', 'integer', 'boolean']).map((type) => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return numberArbitrary(schema, true);
        case 'number':
          return numberArbitrary(schema, false);
        case 'string':
          return stringArbitrary(schema, options);
        case 'array': {
          const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
          const maxItems = Math.max(minItems, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 4, 4));
          return fc.array(next(schema.items ?? {}), { minLength: minItems, maxLength: maxItems });
        }
        case 'object': {
          const properties = isObject(schema.properties) ? schema.properties : {};
          const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
          const model: Record<string, fc.Arbitrary<unknown>> = {};
          for (const [name, property] of Object.entries(properties)) model[name] = next(property);
          for (const name of required) model[name] ??= next({});
          return fc.record(model, { requiredKeys: required });
        }
        default:
          throw new Error(`unknown JSON Schema type ${type}`);
      }
    });
    generated = arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) {
    return fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...(schema.examples as unknown[])) }, { weight: 3, arbitrary: generated });
  }
  return generated;
}

function mergeSchemas(into: SchemaObject, part: SchemaObject): SchemaObject {
  const merged: SchemaObject = { ...into, ...part };
  if (isObject(into.properties) || isObject(part.properties)) {
    merged.properties = { ...(isObject(into.properties) ? into.properties : {}), ...(isObject(part.properties) ? part.properties : {}) };
  }
  if (Array.isArray(into.required) || Array.isArray(part.required)) {
    merged.required = [...(Array.isArray(into.required) ? into.required : []), ...(Array.isArray(part.required) ? part.required : [])];
  }
  // Several patterns (zod writes a second regex as allOf): generate from the most telling one, keep all.
  const patterns = [into, part]
    .flatMap((schema) => (Array.isArray(schema[EXTRA_PATTERNS]) ? (schema[EXTRA_PATTERNS] as string[]) : []))
    .concat([into.pattern, part.pattern].filter((pattern): pattern is string => typeof pattern === 'string'));
  if (patterns.length > 0) {
    merged.pattern = patterns.find((pattern) => !FORBIDS_ONLY.test(pattern)) ?? patterns[0];
    merged[EXTRA_PATTERNS] = patterns;
  }
  return merged;
}
