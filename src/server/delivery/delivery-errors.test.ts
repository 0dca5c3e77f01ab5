import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { deliveryErrorFields } from '../../shared/delivery-errors.ts';
import {
  readGenericGatewayAnswer,
  parseGenericGatewayReceipt,
} from './generic-gateway/connector.ts';
import { describeStatus } from './smpp/connector.ts';
import { readDeliverSm } from './smpp/receipt.ts';
import { parseVonageReceipt, readVonageAnswer } from './vonage/connector.ts';

/**
 * The error an attempt keeps is each provider's own text; errorCode names it the same way
 * whatever the provider, with the provider's code beside it. Each case starts from the text the
 * real connector writes.
 */
function errorOf(result: unknown): string {
  const error =
    (result as { error?: unknown; receipt?: { error?: unknown } }).receipt
      ?.error ?? (result as { error?: unknown }).error;
  if (typeof error !== 'string')
    throw new Error(`no error in ${JSON.stringify(result)}`);
  return error;
}

function smppReceipt(stat: string, err: string) {
  const pdu = new smpp.PDU('deliver_sm', {
    sequence_number: 1,
    esm_class: 0x04,
    short_message: Buffer.from(
      `id:7 stat:${stat} err:${err} text:Hi`,
      'latin1',
    ),
  });
  return readDeliverSm(new smpp.PDU(pdu.toBuffer()));
}

describe('deliveryErrorFields', () => {
  it('reads SMPP: a refused submit by command_status, a receipt by its stat', () => {
    expect(
      deliveryErrorFields(
        'MELROSE_SMPP',
        'REFUSED',
        `SMSC refused: ${describeStatus(0x0b)}`,
      ),
    ).toEqual({ errorCode: 'unknown_destination', providerErrorCode: '0x0b' });
    expect(
      deliveryErrorFields(
        'MELROSE_SMPP',
        'FAILED',
        `SMSC error ${describeStatus(0x08)}`,
      ),
    ).toEqual({ errorCode: 'provider_unavailable', providerErrorCode: '0x08' });
    expect(
      deliveryErrorFields(
        'MELROSE_SMPP',
        'UNDELIVERED',
        errorOf(smppReceipt('UNDELIV', '034')),
      ),
    ).toEqual({ errorCode: 'unreachable', providerErrorCode: '034' });
    expect(
      deliveryErrorFields(
        'MELROSE_SMPP',
        'EXPIRED',
        errorOf(smppReceipt('EXPIRED', '000')),
      ),
    ).toEqual({ errorCode: 'expired', providerErrorCode: 'EXPIRED' });
  });

  it("reads Vonage: its submit status and its receipts' err-code", () => {
    const refused = readVonageAnswer({
      kind: 'answer',
      status: 200,
      text: JSON.stringify({
        messages: [{ status: '7', 'error-text': 'Barred' }],
      }),
    });
    expect(
      deliveryErrorFields('VONAGE_SMS', 'REFUSED', errorOf(refused)),
    ).toEqual({
      errorCode: 'blocked_by_carrier',
      providerErrorCode: 'status 7',
    });
    const receipt = parseVonageReceipt({
      messageId: 'v-1',
      status: 'failed',
      'err-code': '14',
    });
    expect(
      deliveryErrorFields('VONAGE_SMS', 'UNDELIVERED', errorOf(receipt)),
    ).toEqual({
      errorCode: 'blocked_by_carrier',
      providerErrorCode: '14',
    });
    const absent = parseVonageReceipt({
      messageId: 'v-2',
      status: 'failed',
      'err-code': '3',
    });
    expect(
      deliveryErrorFields('VONAGE_SMS', 'UNDELIVERED', errorOf(absent))
        .errorCode,
    ).toBe('unknown_destination');
  });

  it("reads the HTTP gateway: its answer's status and its receipt's status", () => {
    const throttled = readGenericGatewayAnswer({
      kind: 'answer',
      status: 429,
      text: '',
    });
    expect(
      deliveryErrorFields('WORLD_SPECIAL', 'FAILED', errorOf(throttled)),
    ).toEqual({
      errorCode: 'throttled',
      providerErrorCode: 'HTTP 429',
    });
    const receipt = parseGenericGatewayReceipt({
      id: 'g-1',
      status: 'undelivered',
      error: 'absent subscriber',
    });
    expect(
      deliveryErrorFields('WORLD_SPECIAL', 'UNDELIVERED', errorOf(receipt)),
    ).toEqual({
      errorCode: 'unreachable',
      providerErrorCode: 'undelivered',
    });
  });

  it('has none when delivered or under way, and names a final state without words', () => {
    expect(deliveryErrorFields('MELROSE_SMPP', 'DELIVERED', null)).toEqual({
      errorCode: null,
      providerErrorCode: null,
    });
    expect(deliveryErrorFields(null, 'ACCEPTED', null).errorCode).toBeNull();
    expect(deliveryErrorFields('VONAGE_SMS', 'EXPIRED', null)).toEqual({
      errorCode: 'expired',
      providerErrorCode: null,
    });
  });

  it('has none for a CANCELED message: no provider had it, its error names who cancelled it', () => {
    expect(deliveryErrorFields(null, 'CANCELED', 'canceled by staff')).toEqual({
      errorCode: null,
      providerErrorCode: null,
    });
    expect(deliveryErrorFields(null, 'CANCELED', null).errorCode).toBeNull();
  });
});
