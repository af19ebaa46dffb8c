import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/server/db/embedded';

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-embedded-'));
afterAll(() => fs.rmSync(directory, { recursive: true, force: true }));

describe('the embedded PostgreSQL', () => {
  it('refuses to initialise over a directory that holds other files, and leaves them there', async () => {
    const target = path.join(directory, 'not-a-cluster');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'precious.txt'), 'keep me');

    await expect(startEmbeddedPostgres(target)).rejects.toThrow(/has files but is not a PostgreSQL data directory/);
    expect(fs.readFileSync(path.join(target, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(fs.readdirSync(target)).toEqual(['precious.txt']);
  });
});
