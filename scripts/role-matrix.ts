/**
 * Prints the README's role matrix, read from the route table of the real server (each admin
 * route declares `config: { role }`), so the README cannot drift from the code: a test
 * compares the two. Run: `node scripts/role-matrix.ts`.
 */
import type { RouteOptions } from 'fastify';
import {
  rolesGranting,
  type RoleFamily,
  type RoleVerb,
} from '../src/shared/roles.ts';

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export interface AdminRoute {
  method: string;
  path: string;
  roles: string[];
}

/** Every admin route with the roles that grant it, ordered by path then method. */
export function adminRoutes(routeTable: readonly RouteOptions[]): AdminRoute[] {
  return routeTable
    .filter((route) => route.config?.scope === 'admin')
    .flatMap((route) =>
      [route.method].flat().map((method) => {
        const need = route.config?.role;
        return {
          method,
          path: route.url.replace(/:(\w+)/g, '{$1}'),
          roles: need
            ? rolesGranting(need.family as RoleFamily, need.verb as RoleVerb)
            : [],
        };
      }),
    )
    .filter(({ method }) => method !== 'HEAD')
    .sort(
      (a, b) =>
        a.path.localeCompare(b.path) ||
        METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
    );
}

/** The matrix as a Markdown table. */
export function roleMatrix(routeTable: readonly RouteOptions[]): string {
  const rows = adminRoutes(routeTable).map(
    ({ method, path, roles }) =>
      `| \`${method} ${path}\` | ${roles.map((r) => `\`${r}\``).join(' or ')} |`,
  );
  return ['| call | needs one of |', '|---|---|', ...rows].join('\n');
}

if (import.meta.main) {
  const { buildApp } = await import('../src/server/app.ts');
  const { loadConfig } = await import('../src/server/config.ts');
  const app = await buildApp(
    loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }),
  );
  await app.ready();
  console.log(roleMatrix(app.routeTable));
  await app.close();
}
