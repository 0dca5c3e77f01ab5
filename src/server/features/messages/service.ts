import { SMS_CREATE_ROLE } from '../../../shared/roles.ts';
import { multiplyDecimal } from '../../../shared/money.ts';
import type { Message } from '../../../shared/schemas/messages.ts';
import { countSms } from '../../../shared/sms.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, notFound, paymentRequired } from '../../errors.ts';
import * as repo from './repo.ts';

export const NOT_ENOUGH_BALANCE = 'Not enough balance';

/**
 * Sends an SMS from a client: price = segments × SMS_PRICE, computed exactly on decimal text.
 * Needs ROLE_SMS_CREATE held by the caller (for an API client, by its owner).
 */
export async function sendSms(
  deps: Deps,
  principal: Principal,
  clientId: string,
  input: { sender: string; recipient: string; body: string; reference: string },
): Promise<Message> {
  if (!principal.roles.includes(SMS_CREATE_ROLE)) {
    throw forbidden(`Sending SMS needs the role ${SMS_CREATE_ROLE}`);
  }
  const { encoding, segments } = countSms(input.body);
  const outcome = await repo.insertAcceptedMessage(deps.db, {
    ...input,
    clientId,
    ownerId: principal.user.id,
    actorUserId: principal.user.id,
    encoding,
    segments,
    price: multiplyDecimal(deps.config.smsPrice, segments),
  });
  if (outcome.kind === 'no-client') throw notFound('Client');
  if (outcome.kind === 'no-balance') throw paymentRequired(NOT_ENOUGH_BALANCE);
  return outcome.message;
}
