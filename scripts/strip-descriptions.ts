// The web build leaves out the shared contracts' descriptions (ADR 030). A `.describe('...')` in
// src/shared is for the OpenAPI document the server serves: zod registers the text, and
// fastify-type-provider-zod writes it as the JSON Schema's `description`. The browser never reads
// one, and every public page's contract is on a script budget (ADR 018): the sign-in form's went
// over it with the descriptions in. `.describe()` only answers a copy of the schema with the text
// registered beside it, so without the call the schema validates exactly as before.
import type { Plugin } from 'vite';

/** One string literal: quoted, or a template without `${`. */
const STRING_LITERAL = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|` + '`(?:[^`\\\\$]|\\\\.|\\$(?!\\{))*`';
/** `.describe(<one string literal>)`, as prettier may lay it out over several lines (a trailing comma included). */
const DESCRIBE_CALL = new RegExp(String.raw`\.describe\(\s*(?:${STRING_LITERAL})\s*,?\s*\)`, 'g');

/** The source without its `.describe(<string literal>)` calls; a description built at run time stays. */
export function stripDescriptions(source: string): string {
  return source.replace(DESCRIBE_CALL, '');
}

/** Whether a module is one whose descriptions the web build drops: the shared code (contracts, money, limits). */
export const isSharedModule = (id: string): boolean => /\/src\/shared\/.+\.ts$/.test(id.split('?')[0] ?? '');

/** Vite plugin: runs on the TypeScript source, before it is compiled. */
export function stripDescriptionsPlugin(): Plugin {
  return {
    name: 'ledgerline:strip-descriptions',
    enforce: 'pre',
    transform(code, id) {
      if (!isSharedModule(id) || !code.includes('.describe(')) return null;
      return { code: stripDescriptions(code), map: null };
    },
  };
}
