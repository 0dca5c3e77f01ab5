import type {
  FastifyRouteSchemaDef,
  FastifyValidationResult,
} from 'fastify/types/schema.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { MAX_SMS_SEGMENTS } from '../../../shared/limits.ts';
import { cleanRecipient, isValidRecipient } from '../../../shared/recipient.ts';
import type { SendSmsSchema } from '../../../shared/schemas/messages.ts';
import { countSms, isValidSender } from '../../../shared/sms.ts';

export type SendSms = z.output<typeof SendSmsSchema>;

/** At most this many characters of reference (SendSmsSchema). */
const REFERENCE_MAX = 100;

/**
 * SendSmsSchema's value for the common send, checked by hand: sender, recipient, body and an
 * optional reference, all strings the schema accepts, and no sendAt. Anything else is
 * undefined, and left to the schema, whose error answers are the API's. It accepts only what
 * the schema accepts, with the same value (send-body.test.ts holds both to that).
 */
export function parseCommonSend(data: unknown): SendSms | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const fields = data as Record<string, unknown>;
  const { sender, recipient, body, sendAt } = fields;
  const reference = fields.reference === undefined ? '' : fields.reference;
  if (
    sendAt !== undefined ||
    typeof sender !== 'string' ||
    typeof recipient !== 'string' ||
    typeof body !== 'string' ||
    typeof reference !== 'string'
  ) {
    return undefined;
  }
  if (
    !sender.isWellFormed() ||
    !recipient.isWellFormed() ||
    !body.isWellFormed() ||
    !reference.isWellFormed() ||
    reference.length > REFERENCE_MAX ||
    body.length === 0
  ) {
    return undefined;
  }
  const trimmed = sender.trim();
  const cleaned = cleanRecipient(recipient);
  if (
    trimmed === '' ||
    !isValidSender(trimmed) ||
    !isValidRecipient(cleaned) ||
    countSms(body).segments > MAX_SMS_SEGMENTS
  ) {
    return undefined;
  }
  return { sender: trimmed, recipient: cleaned, body, reference };
}

/**
 * The send route's validator compiler: its body is the common send (parseCommonSend, about a
 * tenth of the schema's cost) or else goes through the schema; params through the schema.
 */
export function sendValidatorCompiler<S>(
  route: FastifyRouteSchemaDef<S>,
): FastifyValidationResult {
  // Fastify types a route's validator compiler with the route's whole schema; it is called with
  // each part's own schema (a zod schema here).
  const part = route as FastifyRouteSchemaDef<unknown>;
  const bySchema = validatorCompiler(
    part as Parameters<typeof validatorCompiler>[0],
  );
  if (part.httpPart !== 'body') return bySchema;
  return (data) => {
    const value = parseCommonSend(data);
    return value ? { value } : bySchema(data);
  };
}
