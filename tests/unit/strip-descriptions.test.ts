import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isSharedModule, stripDescriptions } from '../../scripts/strip-descriptions';

describe('stripDescriptions (the web build leaves out the contracts’ descriptions, ADR 030)', () => {
  it('drops a .describe() of one string literal, as prettier lays it out', () => {
    expect(stripDescriptions("ZEmail.describe('The email.').optional()")).toBe('ZEmail.optional()');
    expect(stripDescriptions(`z.string().describe("The account's id."),`)).toBe('z.string(),');
    expect(stripDescriptions("x.describe('It\\'s (really) one, string.')")).toBe('x');
    expect(stripDescriptions('x.describe(`No expression here.`)')).toBe('x');
    expect(stripDescriptions("z\n    .string()\n    .describe(\n      'A long one, on its own line.',\n    ),\n  next: 1")).toBe(
      'z\n    .string()\n    ,\n  next: 1',
    );
  });

  it('keeps a description built at run time, and anything that is not a .describe() call', () => {
    for (const kept of ['x.describe(description)', 'x.describe(`${label} base64url.`)', "x.meta({ description: 'kept' })", "describe('a test', () => {})"]) {
      expect(stripDescriptions(kept)).toBe(kept);
    }
  });

  it('applies to the shared modules only', () => {
    expect(isSharedModule('/repo/src/shared/contracts/auth.ts')).toBe(true);
    expect(isSharedModule('/repo/src/shared/money.ts?v=1')).toBe(true);
    expect(isSharedModule('/repo/src/web/lib/form.ts')).toBe(false);
    expect(isSharedModule('/repo/src/server/plugins/openapi.ts')).toBe(false);
  });

  // Every module the web build transforms: each literal description goes, and the code left is still valid.
  const sharedFiles = fs
    .readdirSync('src/shared', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join('src/shared', file));

  it('leaves every shared module valid TypeScript, with no literal description in it', () => {
    expect(sharedFiles.length).toBeGreaterThan(20);
    const described = sharedFiles.filter((file) => fs.readFileSync(file, 'utf8').includes('.describe('));
    expect(described.length).toBeGreaterThan(0);
    for (const file of sharedFiles) {
      const stripped = stripDescriptions(fs.readFileSync(file, 'utf8'));
      expect(stripped, file).not.toMatch(/\.describe\(\s*(['"]|`(?![^`]*\$\{))/);
      const { diagnostics = [] } = ts.transpileModule(stripped, {
        fileName: file,
        reportDiagnostics: true,
        compilerOptions: { target: ts.ScriptTarget.ES2022 },
      });
      expect(
        diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
        file,
      ).toEqual([]);
    }
  });
});
