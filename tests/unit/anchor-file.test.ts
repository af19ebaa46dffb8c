import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendAnchorLine, checkAnchorFile, lastSeqInFile, readAnchorFile } from '../../src/server/anchors/file';
import { anchorLineText, anchorMessage, parseAnchorLine } from '../../src/server/anchors/format';
import { newSigningKeyPem, verifySignature } from '../../src/server/signing/keys';
import { createPrivateKey, createPublicKey, sign } from 'node:crypto';

const directory = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ledgerline-anchor-unit-'));
const anchor = {
  seq: 3,
  ledgerHead: { position: 42, hash: 'a'.repeat(64) },
  auditHead: { position: 0, hash: '0'.repeat(64) },
  at: '2026-11-24T00:07:00.412Z',
  keyId: '0123456789abcdef',
};

describe('the anchor line', () => {
  it('signs exactly the documented six lines, and the line parses back to what was signed', () => {
    expect(anchorMessage(anchor)).toBe(
      `ledgerline-anchor-v1\nseq=3\nledger=42:${'a'.repeat(64)}\naudit=0:${'0'.repeat(64)}\nat=2026-11-24T00:07:00.412Z\nkeyId=0123456789abcdef`,
    );
    const pem = newSigningKeyPem();
    const signature = sign(null, Buffer.from(anchorMessage(anchor)), createPrivateKey(pem)).toString('base64');
    const line = anchorLineText({ ...anchor, signature });
    const parsed = parseAnchorLine(line);
    expect(parsed).toEqual({ anchor: { ...anchor, signature } });
    const publicPem = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'pem' }).toString();
    expect(verifySignature(publicPem, anchorMessage(anchor), signature)).toBe(true);
  });

  it('refuses what is not exactly an anchor: extra keys, a bad hash, a time without milliseconds, not JSON', () => {
    const good = { ...anchor, signature: `${'A'.repeat(86)}==` };
    expect('anchor' in parseAnchorLine(JSON.stringify(good))).toBe(true);
    expect(parseAnchorLine(JSON.stringify({ ...good, note: 'x' }))).toMatchObject({ error: expect.stringContaining('note') });
    expect(parseAnchorLine(JSON.stringify({ ...good, ledgerHead: { position: 1, hash: 'XYZ' } }))).toMatchObject({
      error: expect.stringContaining('ledgerHead.hash'),
    });
    expect(parseAnchorLine(JSON.stringify({ ...good, at: '2026-11-24T00:07:00Z' }))).toMatchObject({ error: expect.stringContaining('at') });
    expect(parseAnchorLine(JSON.stringify({ ...good, seq: 0 }))).toMatchObject({ error: expect.stringContaining('seq') });
    expect(parseAnchorLine('{"seq":')).toEqual({ error: 'not JSON' });
  });
});

describe('ANCHOR_FILE', () => {
  it('appends whole lines, keeps a torn last line on its own line, and finds the highest seq', () => {
    const file = path.join(directory(), 'nested', 'anchors.jsonl');
    expect(readAnchorFile(file)).toEqual([]);
    expect(lastSeqInFile(file)).toBe(0);
    const line = (seq: number) => anchorLineText({ ...anchor, seq, signature: `${'A'.repeat(86)}==` });
    appendAnchorLine(file, line(1));
    fs.appendFileSync(file, '{"seq":2,"ledg'); // a crash in the middle of a write
    appendAnchorLine(file, line(2));
    expect(fs.readFileSync(file, 'utf8')).toBe(`${line(1)}\n{"seq":2,"ledg\n${line(2)}\n`);
    expect(readAnchorFile(file).map((entry) => entry.number)).toEqual([1, 2, 3]);
    expect(lastSeqInFile(file)).toBe(2);
    expect(() => appendAnchorLine(file, 'two\nlines')).toThrow(/one line/);
  });

  it('is checked at start: a directory or an unwritable place is refused, naming ANCHOR_FILE', () => {
    const place = directory();
    expect(() => checkAnchorFile(path.join(place, 'anchors.jsonl'))).not.toThrow();
    expect(() => checkAnchorFile(place)).toThrow(/^ANCHOR_FILE: cannot append to .*it is not a regular file/);
    fs.writeFileSync(path.join(place, 'blocker'), '');
    expect(() => checkAnchorFile(path.join(place, 'blocker', 'anchors.jsonl'))).toThrow(
      /^ANCHOR_FILE: cannot append to .*blocker\/anchors.jsonl \((EEXIST|ENOTDIR)\)$/,
    );
  });
});
