import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import boundaries of STYLE §3.1-3.2 are only as good as the lint rules that hold them:
 * each case lints a deliberately bad (or good) import at a real path of the tree.
 */
const eslint = new ESLint({ cwd: new URL('../..', import.meta.url).pathname });

async function restrictedImports(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

// The first lint loads every plugin and the type-aware config: seconds on a busy machine.
describe('import boundaries', { timeout: 30_000 }, () => {
  it('refuses a server feature importing another feature', async () => {
    expect(
      await restrictedImports(
        'src/server/features/messages/service.ts',
        "import { findClient } from '../clients/repo.ts';\nexport const x = findClient;\n",
      ),
    ).toEqual([expect.stringMatching(/does not import another feature/)]);
  });

  it('refuses a server route importing a repo, even its own', async () => {
    expect(
      await restrictedImports(
        'src/server/features/clients/routes.ts',
        "import * as repo from './repo.ts';\nexport const x = repo;\n",
      ),
    ).toEqual([expect.stringMatching(/never a repo/)]);
    expect(
      await restrictedImports(
        'src/server/features/clients/admin-routes.ts',
        "import * as repo from './repo.ts';\nexport const x = repo;\n",
      ),
    ).toEqual([expect.stringMatching(/never a repo/)]);
  });

  it('refuses auth, db and plugins importing a feature', async () => {
    expect(
      await restrictedImports(
        'src/server/auth/authenticate.ts',
        "import { findUserById } from '../features/users/repo.ts';\nexport const x = findUserById;\n",
      ),
    ).toEqual([expect.stringMatching(/depend on no feature/)]);
  });

  it('allows a server feature its own service, auth and shared', async () => {
    expect(
      await restrictedImports(
        'src/server/features/clients/routes.ts',
        [
          "import * as service from './service.ts';",
          "import { API_CLIENT_REFUSED } from '../../auth/scopes.ts';",
          "import { DEFAULT_PAGE_SIZE } from '../../../shared/limits.ts';",
          'export const x = [service, API_CLIENT_REFUSED, DEFAULT_PAGE_SIZE];',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('refuses a web feature importing another feature', async () => {
    expect(
      await restrictedImports(
        'src/web/features/clients/components/client-list.tsx',
        "import { useMe } from '../../users/api/get-me';\nexport const x = useMe;\n",
      ),
    ).toEqual([expect.stringMatching(/does not import another feature/)]);
  });

  it('refuses the web importing the server, and shared importing either', async () => {
    expect(
      await restrictedImports(
        'src/web/lib/format.ts',
        "import { buildApp } from '../../server/app.ts';\nexport const x = buildApp;\n",
      ),
    ).not.toEqual([]);
    expect(
      await restrictedImports(
        'src/shared/money.ts',
        "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
      ),
    ).not.toEqual([]);
  });
  it('refuses a server feature reading request.principal instead of request.actor', async () => {
    const [result] = await eslint.lintText(
      'export const who = (request: { principal?: unknown }) => request.principal;\n',
      { filePath: 'src/server/features/clients/routes.ts' },
    );
    expect(
      (result?.messages ?? [])
        .filter((m) => m.ruleId === 'no-restricted-syntax')
        .map((m) => m.message),
    ).toEqual([expect.stringMatching(/request\.actor/)]);
  });

  it.each([
    [
      'a feature reaching into delivery past its index',
      'src/server/features/clients/service.ts',
      "import { postCallback } from '../../delivery/callbacks/send.ts';\nexport const x = postCallback;\n",
      /only through delivery\/index\.ts/,
    ],
    [
      'auth importing the composition root',
      'src/server/auth/authenticate.ts',
      "import type { Deps } from '../deps.ts';\nexport type X = Deps;\n",
      /on no composition root/,
    ],
    [
      'auth importing audit',
      'src/server/auth/authenticate.ts',
      "import { recordAudit } from '../audit/record.ts';\nexport const x = recordAudit;\n",
      /auth does not import audit/,
    ],
    [
      'config importing delivery',
      'src/server/config.ts',
      "import { VONAGE_RECEIPT_PATH } from './delivery/webhook-paths.ts';\nexport const x = VONAGE_RECEIPT_PATH;\n",
      /neither the composition root \(deps\.ts\) nor delivery/,
    ],
    [
      'delivery importing a feature',
      'src/server/delivery/engine.ts',
      "import * as repo from '../features/messages/repo.ts';\nexport const x = repo;\n",
      /delivery depends on config, db and shared only/,
    ],
  ])('refuses %s', async (_name, filePath, code, message) => {
    expect(await restrictedImports(filePath, code)).toEqual([
      expect.stringMatching(message),
    ]);
  });

  it('allows a feature the delivery index', async () => {
    expect(
      await restrictedImports(
        'src/server/features/webhooks/service.ts',
        "import { bearerMatches } from '../../delivery/index.ts';\nexport const x = bearerMatches;\n",
      ),
    ).toEqual([]);
  });
});
