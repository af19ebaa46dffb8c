// Writes src/server/auth/common-passwords.txt: the 10,000 most common passwords of a breach corpus,
// as zxcvbn-ts ranks them. Run again only to refresh the list from a newer package:
//   node --import tsx scripts/common-passwords.ts
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { dictionary } from '@zxcvbn-ts/language-common';

const COUNT = 10_000;
const require = createRequire(import.meta.url);
const { version } = require('@zxcvbn-ts/language-common/package.json') as { version: string };
const passwords = dictionary['passwords-common'].slice(0, COUNT);
if (passwords.length !== COUNT) throw new Error(`the package has only ${passwords.length} passwords`);
if (passwords.some((password) => password.startsWith('#') || password !== password.trim() || password.length === 0)) {
  throw new Error('a password would read as a comment or blank line');
}
const header = [
  `# The ${COUNT.toLocaleString('en-US')} most common passwords, most common first: the first ${COUNT} entries of`,
  `# "passwords-common" in @zxcvbn-ts/language-common ${version} (MIT). zxcvbn-ts builds that list from`,
  '# the Xato corpus of 10 million leaked username/password pairs (https://xato.net), counted and sorted',
  '# by frequency, leaving out passwords that its patterns (repeats, sequences, dates) already guess',
  '# sooner than their rank; those are refused by the strength score instead. Lower case.',
  '# Regenerate with: node --import tsx scripts/common-passwords.ts',
];
fs.writeFileSync(new URL('../src/server/auth/common-passwords.txt', import.meta.url), `${[...header, ...passwords].join('\n')}\n`);
process.stdout.write(`wrote ${passwords.length} passwords from @zxcvbn-ts/language-common ${version}\n`);
