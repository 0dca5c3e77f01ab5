/**
 * Sends one SMS with the typed SDK (src/sdk) and waits until it is delivered:
 *
 *   SMS_API_URL=https://sms.example.com SMS_CLIENT_ID=… SMS_CLIENT_SECRET=… \
 *     node examples/send-sms.ts +447700900123 "Your order has shipped"
 *
 * Quote first (price and whether the destination is allowed), then send with an
 * Idempotency-Key, so that running it again after a timeout cannot send or charge twice.
 * Exits 0 once the message is DELIVERED, 1 otherwise.
 */
import { randomUUID } from 'node:crypto';
import { createSmsClient, waitForFinalState } from '../src/sdk/index.ts';

const baseUrl = process.env.SMS_API_URL ?? 'http://localhost:3000';
const clientId = process.env.SMS_CLIENT_ID;
const secret = process.env.SMS_CLIENT_SECRET;
const [recipient = '', body = 'Hello from the SDK'] = process.argv.slice(2);
if (!clientId || !secret || !recipient) {
  console.error(
    'usage: SMS_API_URL=… SMS_CLIENT_ID=… SMS_CLIENT_SECRET=… node examples/send-sms.ts <recipient> [body]',
  );
  process.exit(2);
}
// Keep the key with the order it belongs to: the same key on a retry answers the first send.
const idempotencyKey = process.env.SMS_IDEMPOTENCY_KEY ?? randomUUID();

const sms = createSmsClient({ baseUrl, username: clientId, password: secret });

const quote = await sms.GET('/api/clients/{clientId}/quote', {
  params: { path: { clientId }, query: { recipient, body } },
});
if (quote.error) throw new Error(`${quote.error.code}: ${quote.error.message}`);
if (!quote.data.allowed) {
  console.error(`not allowed: ${quote.data.reason}`);
  process.exit(1);
}
console.log(
  `${quote.data.segments} segment(s) at ${quote.data.pricePerSegment}: ${quote.data.amount}`,
);

const sent = await sms.POST('/api/clients/{clientId}/messages/sms', {
  params: {
    path: { clientId },
    header: { 'Idempotency-Key': idempotencyKey },
  },
  body: { sender: 'Shop', recipient, body },
});
if (sent.error) {
  // Branch on the stable code, not on the English message.
  if (sent.error.code === 'insufficient_balance') console.error('top up first');
  throw new Error(`${sent.error.code}: ${sent.error.message}`);
}
const replayed = sent.response.headers.get('idempotent-replayed') === 'true';
console.log(
  `message ${sent.data.id} ${sent.data.state}${replayed ? ' (replayed)' : ''}`,
);

const final = await waitForFinalState(sms, clientId, sent.data.id);
console.log(`message ${final.id} ${final.state}`);
process.exit(final.state === 'DELIVERED' ? 0 : 1);
