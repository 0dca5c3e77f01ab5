import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClientIdParamsSchema } from '../../../shared/schemas/common.ts';
import {
  ConversationListQuerySchema,
  ConversationListSchema,
  ConversationParamsSchema,
  ConversationQuerySchema,
  ConversationThreadSchema,
  InboundMessageListSchema,
  InboundMessageSchema,
  InboundParamsSchema,
  InboundQuerySchema,
} from '../../../shared/schemas/inbound.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const INBOUND_DESCRIPTION =
  "Messages received on the client's numbers, newest first. Filters: `from` (the sender) and " +
  '`to` (the number; a leading + is dropped from either), `since` and `until` (a date, its ' +
  'whole UTC day, or an ISO 8601 time; both inclusive).';
const CONVERSATIONS_DESCRIPTION =
  'One conversation per remote number: the senders of its inbound messages and the ' +
  'recipients of its messages. Newest first by `lastMessageAt`; `lastDirection` says whether ' +
  'the last message came in or went out (at the same instant: inbound); `optedOut`: the ' +
  'number opted out, and a send to it is refused. `inbound=true`: only the numbers that wrote ' +
  'to the client (an inbox), which costs what they wrote rather than everything the client sent.';
const THREAD_DESCRIPTION =
  'Both directions, oldest first (page from the end for the latest: offset = total - count). ' +
  "`state`: an outbound item's message state, `RECEIVED` for an inbound one. A number never " +
  'written to or heard from is an empty conversation. A leading + of the number is dropped.';

/** The four reads, for the owner (`admin` false) or for staff under /admin (`admin` true). */
function inboundReads(deps: Deps, admin: boolean): FastifyPluginAsyncZod {
  const config = admin
    ? { config: { role: { family: 'CLIENT', verb: 'VIEW' } as const } }
    : {};
  const name = (operation: string) =>
    admin
      ? `admin${operation[0]!.toUpperCase()}${operation.slice(1)}`
      : operation;
  const tags = admin ? ['admin: inbound'] : ['inbound'];
  const errors = admin
    ? errorResponses(400, 401, 403, 404)
    : errorResponses(400, 401, 404);
  const whose = admin ? "any client's" : "a client's";
  return async (app) => {
    const ownerOf = (request: { actor: { user: { id: string } } }) =>
      admin ? null : request.actor.user.id;

    app.get(
      '/clients/:clientId/inbound',
      {
        ...config,
        schema: {
          operationId: name('listInboundMessages'),
          tags,
          summary: `The inbound messages of ${whose} numbers`,
          description: INBOUND_DESCRIPTION,
          params: ClientIdParamsSchema,
          querystring: InboundQuerySchema,
          response: { 200: InboundMessageListSchema, ...errors },
        },
      },
      async (request) =>
        service.listInbound(
          deps,
          request.params.clientId,
          ownerOf(request),
          request.query,
        ),
    );

    app.get(
      '/clients/:clientId/inbound/:id',
      {
        ...config,
        schema: {
          operationId: name('getInboundMessage'),
          tags,
          summary: `One inbound message of ${whose}`,
          params: InboundParamsSchema,
          response: { 200: InboundMessageSchema, ...errors },
        },
      },
      async (request) =>
        service.getInbound(
          deps,
          request.params.clientId,
          ownerOf(request),
          request.params.id,
        ),
    );

    app.get(
      '/clients/:clientId/conversations',
      {
        ...config,
        schema: {
          operationId: name('listConversations'),
          tags,
          summary: `The conversations of ${whose}, newest first`,
          description: CONVERSATIONS_DESCRIPTION,
          params: ClientIdParamsSchema,
          querystring: ConversationListQuerySchema,
          response: { 200: ConversationListSchema, ...errors },
        },
      },
      async (request) =>
        service.listConversations(
          deps,
          request.params.clientId,
          ownerOf(request),
          request.query,
        ),
    );

    app.get(
      '/clients/:clientId/conversations/:number',
      {
        ...config,
        schema: {
          operationId: name('getConversation'),
          tags,
          summary: `One conversation of ${whose} with a number, both directions`,
          description: THREAD_DESCRIPTION,
          params: ConversationParamsSchema,
          querystring: ConversationQuerySchema,
          response: { 200: ConversationThreadSchema, ...errors },
        },
      },
      async (request) =>
        service.getConversation(
          deps,
          request.params.clientId,
          ownerOf(request),
          request.params.number,
          request.query,
        ),
    );
  };
}

/**
 * A client's inbound messages and conversations; an API client reads its own (client-or-user
 * scope), as it reads its message log.
 */
export function inboundRoutes(deps: Deps): FastifyPluginAsyncZod {
  return inboundReads(deps, false);
}

/** The same for staff, any client (ROLE_CLIENT_ADMIN or ROLE_CLIENT_VIEW, as the message log). */
export function adminInboundRoutes(deps: Deps): FastifyPluginAsyncZod {
  return inboundReads(deps, true);
}
