import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdSchema } from '../../../shared/schemas/common.ts';
import {
  MessageSchema,
  SendSmsSchema,
} from '../../../shared/schemas/messages.ts';
import { actorOf, ownerOfClientCall } from '../../auth/scopes.ts';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../schemas.ts';
import * as service from './service.ts';

const tags = ['messages'];
const ClientParamsSchema = z.object({ clientId: IdSchema });

/** Sending SMS from one of my clients; an API client may send from itself. */
export function messagesRoutes(deps: Deps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/clients/:clientId/messages/sms',
      {
        schema: {
          tags,
          summary:
            'Send an SMS: debits segments × SMS_PRICE (402 when the balance is too low)',
          description:
            'The recipient loses plus signs, dots, dashes and whitespace and must then be 6 to 15 ' +
            'digits. The body is counted in GSM-7 (160, or 153 per part) or UCS-2 (70, or 67 per ' +
            'part) segments, at most 10. Needs ROLE_SMS_CREATE.',
          params: ClientParamsSchema,
          body: SendSmsSchema,
          response: {
            201: MessageSchema,
            ...errorResponses(400, 401, 402, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const { clientId } = request.params;
        ownerOfClientCall(request, clientId);
        const message = await service.sendSms(
          deps,
          actorOf(request),
          clientId,
          request.body,
        );
        return reply.code(201).send(message);
      },
    );
  };
}
