/**
 * Prints the README's role matrix, read from the `config: { role }` each admin route declares
 * (src/server/features/*\/routes.ts), so the README cannot drift from the code: a test
 * compares the two. Run: `node scripts/role-matrix.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  rolesGranting,
  type RoleFamily,
  type RoleVerb,
} from '../src/shared/roles.ts';

const FEATURES = resolve(import.meta.dirname, '../src/server/features');
const ROUTE =
  /app\.(get|post|put|patch|delete)\(\s*'([^']+)',\s*\{\s*config:\s*\{\s*role:\s*\{\s*family:\s*'(\w+)',\s*verb:\s*'(\w+)'/g;
const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface AdminRoute {
  method: string;
  path: string;
  roles: string[];
}

/** Every admin route with the roles that grant it, ordered by path then method. */
export function adminRoutes(): AdminRoute[] {
  const routes: AdminRoute[] = [];
  for (const feature of readdirSync(FEATURES)) {
    let source: string;
    try {
      source = readFileSync(join(FEATURES, feature, 'routes.ts'), 'utf8');
    } catch {
      continue;
    }
    for (const [, method = '', path = '', family, verb] of source.matchAll(
      ROUTE,
    )) {
      routes.push({
        method: method.toUpperCase(),
        path: `/api/admin${path.replace(/:(\w+)/g, '{$1}')}`,
        roles: rolesGranting(family as RoleFamily, verb as RoleVerb),
      });
    }
  }
  return routes.sort(
    (a, b) =>
      a.path.localeCompare(b.path) ||
      METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
  );
}

/** The matrix as a Markdown table. */
export function roleMatrix(): string {
  const rows = adminRoutes().map(
    ({ method, path, roles }) =>
      `| \`${method} ${path}\` | ${roles.map((r) => `\`${r}\``).join(' or ')} |`,
  );
  return ['| call | needs one of |', '|---|---|', ...rows].join('\n');
}

if (import.meta.main) console.log(roleMatrix());
