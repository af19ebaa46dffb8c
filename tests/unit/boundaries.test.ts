import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import zones of eslint.config.js, run over deliberately bad code placed in each zone: every
// forbidden import must fail the lint (and an allowed one must not), or the boundaries are words.
const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths' || message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('import boundaries', () => {
  it('refuse Fastify in a service, a repository and the ledger', async () => {
    for (const file of ['src/server/cards/service.ts', 'src/server/cards/repository.ts', 'src/server/ledger/fixture.ts']) {
      expect(await problems(file, "import Fastify from 'fastify';\nexport const app = Fastify;\n"), file).toEqual([
        expect.stringMatching(/know nothing of HTTP/),
      ]);
    }
    expect(await problems('src/server/cards/service.ts', "import { send } from '../plugins/reply';\nexport const s = send;\n")).toEqual([
      expect.stringMatching(/do not depend on the HTTP layer/),
    ]);
  });

  it('refuse a domain, a plugin or the seed in the ledger core, and allow the database', async () => {
    const file = 'src/server/ledger/fixture.ts';
    for (const from of ['../seed', '../cards/service', '../plugins/auth', '../auth/sessions']) {
      expect(await problems(file, `import * as m from '${from}';\nexport const x = m;\n`), from).toEqual([expect.stringMatching(/ledger core imports only/)]);
    }
    expect(await problems(file, "import * as m from '../db/database';\nexport const x = m;\n")).toEqual([]);
  });

  it('refuse the web app in the server, and the server in the web app', async () => {
    expect(await problems('src/server/plugins/fixture.ts', "import { api } from '../../web/lib/api';\nexport const x = api;\n")).toEqual([
      expect.stringMatching(/server does not import the web app/),
    ]);
    expect(await problems('src/web/lib/fixture.ts', "import { buildApp } from '../../server/app';\nexport const x = buildApp;\n")).toEqual([
      expect.stringMatching(/web app does not import the server/),
    ]);
  });

  it('refuse one web feature importing another, by relative path or alias', async () => {
    expect(await problems('src/web/features/kyc/fixture.ts', "import * as m from '../profile/api';\nexport const x = m;\n")).toEqual([
      expect.stringMatching(/feature does not import another feature/),
    ]);
    expect(await problems('src/web/features/kyc/fixture.ts', "import * as m from '~/features/loans/api';\nexport const x = m;\n")).toEqual([
      expect.stringMatching(/feature does not import another feature/),
    ]);
    expect(await problems('src/web/features/kyc/fixture.ts', "import * as m from '../../lib/api';\nexport const x = m;\n")).toEqual([]);
  });
});
