/**
 * Delivery receipts of the HTTP providers: check who sent them, read them, and hand them to
 * the delivery's receipt path (which keeps final states final and waits for ids it does not
 * know yet). A receipt is acknowledged (2xx) only once stored, so a failure makes the provider
 * send it again. Nothing reaches the database before every id in it has been checked
 * (receipt-fields.ts): receipts share a write with other customers' submits.
 */
import type { Deps } from '../../deps.ts';
import {
  parseVonageReceipt,
  verifyVonageSignature,
  vonageFields,
  vonageTimestampProblem,
  bearerMatches,
  parseGenericGatewayReceipt,
} from '../../delivery/index.ts';
import { badRequest, notFound, unauthorized } from '../../errors.ts';
import type { InboundOutcome } from '../../inbound/inbox.ts';
import {
  parseGatewayInbound,
  parseVonageInbound,
  type ParsedInbound,
} from '../../inbound/webhook-fields.ts';

export type ReceiptAnswer =
  | { taken: true }
  /** Understood, but nothing to store (not a final word, or not about a message of ours). */
  | { taken: false; reason: string };

/** Our message ids, which we send to Vonage as client-ref. */
const MESSAGE_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A Vonage webhook's fields (query string, form or JSON body together), checked as Vonage
 * signs them when VONAGE_SIGNATURE_SECRET is set: receipts and inbound messages alike.
 */
function vonageWebhookFields(
  deps: Deps,
  query: unknown,
  body: unknown,
): Record<string, string> {
  // Nothing goes through Vonage without its key, so nothing of ours can come: a webhook that
  // stored rows anyway would only be a public way to write them.
  if (!deps.config.delivery.vonage) throw notFound('Vonage webhook');
  const fields = vonageFields(query, body);
  const signature = deps.config.delivery.vonageSignature;
  if (signature) {
    if (!verifyVonageSignature(fields, signature.secret, signature.method)) {
      throw unauthorized('Missing or invalid Vonage signature');
    }
    const stale = vonageTimestampProblem(fields);
    if (stale) throw unauthorized(`Invalid Vonage signature: ${stale}`);
  }
  return fields;
}

/** Vonage: the fields of the query string and of the form or JSON body, together. */
export async function vonageReceipt(
  deps: Deps,
  query: unknown,
  body: unknown,
): Promise<ReceiptAnswer> {
  const fields = vonageWebhookFields(deps, query, body);
  const signature = deps.config.delivery.vonageSignature;
  const parsed = parseVonageReceipt(fields);
  if ('ignore' in parsed) {
    // Statuses that are not final yet are Vonage's to send; anything else is not a receipt.
    if (parsed.ignore.startsWith('non-final')) {
      return { taken: false, reason: parsed.ignore };
    }
    throw badRequest(`Invalid Vonage receipt: ${parsed.ignore}`);
  }
  if (signature) {
    await deps.deliveryReceipts.deliver('VONAGE_SMS', parsed);
    return { taken: true };
  }
  // Unsigned: anyone could have sent it, so it may decide only the message it names (we send
  // our message id as client-ref). Without one of our ids there it names none: answered 200
  // so that a real sender stops, and not stored.
  const clientRef = fields['client-ref'] ?? '';
  if (!MESSAGE_ID.test(clientRef)) {
    return { taken: false, reason: 'unsigned receipt without our client-ref' };
  }
  await deps.deliveryReceipts.deliver('VONAGE_SMS', {
    ...parsed,
    unauthenticated: { clientRef: clientRef.toLowerCase() },
  });
  return { taken: true };
}

/** The generic gateway: POST JSON with the same bearer token as our submits. */
export async function genericGatewayReceipt(
  deps: Deps,
  authorization: string | undefined,
  body: unknown,
): Promise<ReceiptAnswer> {
  const token = deps.config.delivery.genericGatewayToken;
  if (!token || !bearerMatches(authorization, token)) {
    throw unauthorized('Missing or invalid bearer token');
  }
  const parsed = parseGenericGatewayReceipt(body);
  if ('error' in parsed) throw badRequest(parsed.error);
  await deps.deliveryReceipts.deliver('WORLD_SPECIAL', parsed.receipt);
  return { taken: true };
}

/**
 * An inbound message taken (2xx): stored, a part kept for the others, one we had already, or
 * to a number nobody holds (dropped and counted). The answer is the same for all four, so a
 * caller learns nothing of which numbers are held.
 */
export type InboundAnswer =
  { taken: true; outcome: InboundOutcome } | { taken: false; reason: string };

async function takeInbound(
  deps: Deps,
  parsed: ParsedInbound,
): Promise<InboundAnswer> {
  if ('error' in parsed) throw badRequest(parsed.error);
  if ('ignore' in parsed) return { taken: false, reason: parsed.ignore };
  // Acknowledged only once stored: a failed write answers 5xx and the provider sends it again.
  return { taken: true, outcome: await deps.inbound.take(parsed.part) };
}

/** Vonage's inbound SMS: signed like its receipts when VONAGE_SIGNATURE_SECRET is set. */
export async function vonageInbound(
  deps: Deps,
  query: unknown,
  body: unknown,
): Promise<InboundAnswer> {
  const fields = vonageWebhookFields(deps, query, body);
  return takeInbound(deps, parseVonageInbound(fields));
}

/** The generic gateway's inbound SMS: the same bearer token as its receipts. */
export async function genericGatewayInbound(
  deps: Deps,
  authorization: string | undefined,
  body: unknown,
): Promise<InboundAnswer> {
  const token = deps.config.delivery.genericGatewayToken;
  if (!token || !bearerMatches(authorization, token)) {
    throw unauthorized('Missing or invalid bearer token');
  }
  return takeInbound(deps, parseGatewayInbound(body));
}
