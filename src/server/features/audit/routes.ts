import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuditListSchema,
  AuditQuerySchema,
} from '../../../shared/schemas/audit.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['admin: audit'];

/** The audit log of privileged and security-relevant actions; registered in the admin scope. */
export function adminAuditRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/audit',
      {
        config: { role: { family: 'AUDIT', verb: 'LIST' } },
        schema: {
          operationId: 'adminListAuditEvents',
          tags,
          summary:
            'The audit log, newest first; filters: action, actorUserId, targetId, since, until',
          querystring: AuditQuerySchema,
          response: {
            200: AuditListSchema,
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) => {
        const { count, offset, ...filter } = request.query;
        const page = { count, offset };
        return {
          ...(await service.listAuditEvents(deps, filter, page)),
          ...page,
        };
      },
    );
  };
}
