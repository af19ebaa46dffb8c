import type { SchemaObject } from './document';

/**
 * Values that broke the bank before, or break banks in general: control characters (PostgreSQL
 * refuses a NUL), lone surrogates, text far over any limit, dates at the ends of the calendar,
 * numbers no amount can be, and the wrong JSON types.
 */
export const HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'Dana\u0000Rivera',
  '\u0001\u0002\u0003\u0004',
  'bell\u0007',
  '\u001b[2J\u001b[31mred',
  'tab\there',
  'two\nlines\r\n',
  '\u007f',
  'c1 \u0085 \u009b',
  '\ud800',
  'x\udfffy',
  '\ufeffbom',
  'rtl \u202e override',
  'A'.repeat(10_000),
  '\ud835\udd4f'.repeat(3_000),
  '0000-01-01',
  '9999-12-31',
  '0000-00-00',
  '2024-02-30',
  '-000001-01-01',
  '1e400',
  'NaN',
  '-0',
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  '${jndi:ldap://example.com/a}',
  '',
  ' ',
];

export const HOSTILE_NUMBERS: readonly number[] = [0, -1, -0.01, 0.001, 123.456, 1e21, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE];

export const WRONG_TYPES: readonly unknown[] = [null, true, false, [], {}, ['a', 'b'], { nested: { deeper: 1 } }, 'text', 42];

/** Every hostile leaf value: strings, numbers and the wrong types. */
export const HOSTILE_VALUES: readonly unknown[] = [...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, ...WRONG_TYPES];

/** Text for a URL (query or path): every hostile string plus numbers written out. */
export const HOSTILE_URL_VALUES: readonly string[] = [...HOSTILE_STRINGS, ...HOSTILE_NUMBERS.map(String), 'true', '[]', '{}'];

/** Printable values a header may carry (Node refuses control characters in headers before sending). */
export const HOSTILE_HEADER_VALUES: readonly string[] = ['', 'short', 'has space', 'x'.repeat(101), 'bad/key!', '../../etc', '\u00e9\u00e8', '0'.repeat(8)];

/** JSON nested `depth` deep, as text (JSON.stringify of such a value would itself overflow the stack). */
export const deepJson = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
export const deepObjectJson = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Values that break one of the schema's own rules (longer than allowed, out of range, not in the list). */
export function violationsOf(schema: SchemaObject): unknown[] {
  const found: unknown[] = [];
  if (typeof schema.maxLength === 'number') found.push('x'.repeat(schema.maxLength + 1));
  if (typeof schema.minLength === 'number' && schema.minLength > 0) found.push('x'.repeat(schema.minLength - 1));
  if (typeof schema.maximum === 'number') found.push(schema.maximum + 1, schema.maximum * 1000);
  if (typeof schema.minimum === 'number') found.push(schema.minimum - 1);
  if (typeof schema.exclusiveMinimum === 'number') found.push(schema.exclusiveMinimum);
  if (typeof schema.multipleOf === 'number') found.push(schema.multipleOf / 3);
  if (Array.isArray(schema.enum)) found.push('not-one-of-them', String(schema.enum[0]).toUpperCase());
  if (schema.type === 'integer') found.push(1.5, '12abc');
  if (schema.format === 'uuid') found.push('00000000-0000-0000-0000-00000000000g', 'not-a-uuid');
  if (schema.format === 'email') found.push('no-at-sign', 'a@', '@example.com');
  if (typeof schema.maxItems === 'number') found.push(Array.from({ length: schema.maxItems + 1 }, () => 'x'));
  return found.length > 0 ? found : ['x'.repeat(100_000)];
}

/** A URL-safe writing of any text, lone surrogates included (sent as the bytes of an invalid UTF-8 sequence). */
export function encodeUrlText(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    let encoded = '';
    for (const char of value) {
      const code = char.codePointAt(0)!;
      if (code >= 0xd800 && code <= 0xdfff) {
        encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
      } else encoded += encodeURIComponent(char);
    }
    return encoded;
  }
}

/** A small seeded random source (mulberry32): the fuzzer's choices repeat run after run. */
export function seededRandom(seed: number): { next(): number; pick<T>(items: readonly T[]): T; int(max: number): number } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
  };
}
