import type { Access } from '../../lib/permissions';

/** What each route-split call needs (the server's `config.role` of /admin/routes/split). */
export const routeSplitAccess = {
  list: { family: 'ROUTE', verb: 'LIST' },
  create: { family: 'ROUTE', verb: 'CREATE' },
  update: { family: 'ROUTE', verb: 'UPDATE' },
  remove: { family: 'ROUTE', verb: 'DELETE' },
} as const satisfies Record<string, Access>;
