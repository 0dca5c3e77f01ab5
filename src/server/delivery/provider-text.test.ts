import { describe, expect, it } from 'vitest';
import {
  MAX_PROVIDER_ID,
  providerError,
  providerId,
  storableOutcome,
  storableReceipt,
} from './provider-text.ts';
import { readGenericGatewayAnswer } from './generic-gateway/connector.ts';

const LONE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('provider text fit to store', () => {
  it('keeps an ordinary id, removes a NUL and control characters', () => {
    expect(providerId('S0000001a')).toBe('S0000001a');
    expect(providerId(' ab\u0000cd\u0007 ')).toBe('abcd');
  });

  it('shortens an over-long id to a stable key the receipt finds again', () => {
    const long = 'x'.repeat(3000);
    const key = providerId(long);
    expect(key.length).toBeLessThanOrEqual(MAX_PROVIDER_ID);
    expect(key).toMatch(/^x{67}~[0-9a-f]{32}$/);
    expect(providerId(long)).toBe(key); // the receipt's id maps to the same key
    expect(providerId(key)).toBe(key); // idempotent
    expect(providerId(`${'x'.repeat(2999)}y`)).not.toBe(key);
  });

  it('cuts an error text without leaving half an emoji', () => {
    const error = providerError(`${'e'.repeat(499)}😀 and more`);
    expect(error).toHaveLength(499);
    expect(LONE.test(error)).toBe(false);
    expect(providerError('lone \uD83D here')).toBe('lone \uFFFD here');
  });

  it('cleans outcomes and receipts', () => {
    expect(
      storableOutcome({ kind: 'submitted', providerMessageIds: ['a\u0000'] }),
    ).toEqual({ kind: 'submitted', providerMessageIds: ['a'] });
    expect(storableOutcome({ kind: 'retry', error: 'x\u0000y' })).toEqual({
      kind: 'retry',
      error: 'xy',
    });
    expect(
      storableReceipt({
        providerMessageId: 'i\u0000d',
        state: 'UNDELIVERED',
        error: 'UNDELIV err:\uDC00',
      }),
    ).toEqual({
      providerMessageId: 'id',
      state: 'UNDELIVERED',
      error: 'UNDELIV err:\uFFFD',
    });
    // An unsigned receipt keeps the message it may decide (its clientRef).
    const unsigned = {
      providerMessageId: 'v1',
      state: 'REJECTED' as const,
      error: null,
      unauthenticated: { clientRef: 'message-1' },
    };
    expect(storableReceipt(unsigned)).toEqual(unsigned);
  });

  it('the gateway error body cut at 200 characters keeps whole characters', () => {
    const body = `${'a'.repeat(199)}😀${'b'.repeat(50)}`;
    const result = readGenericGatewayAnswer({
      kind: 'answer',
      status: 400,
      text: body,
    });
    expect(result.kind).toBe('refused');
    const error = (result as { error: string }).error;
    expect(LONE.test(error)).toBe(false);
    expect(error.endsWith('a'.repeat(10))).toBe(true);
  });
});
