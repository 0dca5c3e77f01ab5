import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { readDeliverSm } from './receipt.ts';

/** A deliver_sm as the smpp library hands it over: encoded, then parsed back from bytes. */
function received(fields: Record<string, unknown>) {
  const pdu = new smpp.PDU('deliver_sm', { sequence_number: 1, ...fields });
  return new smpp.PDU(pdu.toBuffer());
}

const TEXT = (id: string, stat: string, err = '000') =>
  Buffer.from(
    `id:${id} sub:001 dlvrd:000 submit date:2611231200 done date:2611231201 stat:${stat} err:${err} text:Hello`,
    'latin1',
  );

describe('readDeliverSm', () => {
  it('reads the receipt text whatever the library made of data_coding 0 or 1', () => {
    for (const data_coding of [0, 1]) {
      const pdu = received({
        esm_class: 0x04,
        data_coding,
        short_message: TEXT('a_b@c$[x]', 'UNDELIV', '0x1F'),
      });
      expect(readDeliverSm(pdu)).toEqual({
        kind: 'receipt',
        receipt: {
          providerMessageId: 'a_b@c$[x]',
          state: 'UNDELIVERED',
          error: 'UNDELIV err:0x1F',
        },
      });
    }
  });

  it('reads Latin-1 receipts and lower-case words', () => {
    const pdu = received({
      esm_class: 0x04,
      data_coding: 3,
      short_message: Buffer.from('ID:77 stat:delivrd err:000', 'latin1'),
    });
    expect(readDeliverSm(pdu)).toEqual({
      kind: 'receipt',
      receipt: { providerMessageId: '77', state: 'DELIVERED', error: null },
    });
  });

  it('prefers the receipted_message_id and message_state TLVs', () => {
    const pdu = received({
      esm_class: 0x04,
      short_message: TEXT('from-text', 'DELIVRD'),
      receipted_message_id: 'from-tlv',
      message_state: 3,
    });
    expect(readDeliverSm(pdu)).toEqual({
      kind: 'receipt',
      receipt: {
        providerMessageId: 'from-tlv',
        state: 'EXPIRED',
        error: 'EXPIRED',
      },
    });
    // TLVs alone, even without the receipt bit
    const bare = received({ receipted_message_id: 'x1', message_state: 8 });
    expect(readDeliverSm(bare)).toMatchObject({
      kind: 'receipt',
      receipt: { providerMessageId: 'x1', state: 'REJECTED' },
    });
  });

  it('maps the final stats and ignores the others', () => {
    const read = (stat: string) =>
      readDeliverSm(
        received({ esm_class: 0x04, short_message: TEXT('1', stat) }),
      );
    expect(read('DELETED')).toMatchObject({
      receipt: { state: 'UNDELIVERED', error: 'DELETED' },
    });
    expect(read('UNKNOWN')).toMatchObject({
      receipt: { state: 'UNDELIVERED', error: 'UNKNOWN' },
    });
    expect(read('REJECTD')).toMatchObject({ receipt: { state: 'REJECTED' } });
    expect(read('ENROUTE')).toEqual({
      kind: 'interim',
      providerMessageId: '1',
      stat: 'ENROUTE',
    });
    expect(read('ACCEPTD')).toMatchObject({ kind: 'interim' });
    expect(read('WHATEVER')).toMatchObject({ kind: 'unreadable' });
  });

  it('tells mobile-originated messages and garbage apart', () => {
    expect(
      readDeliverSm(received({ short_message: Buffer.from('STOP') })),
    ).toEqual({
      kind: 'mobile-originated',
    });
    expect(
      readDeliverSm(
        received({ esm_class: 0x04, short_message: Buffer.from('hello') }),
      ),
    ).toEqual({ kind: 'unreadable', reason: 'receipt without message id' });
    expect(
      readDeliverSm(
        received({ esm_class: 0x04, short_message: Buffer.from('id:5') }),
      ),
    ).toEqual({ kind: 'unreadable', reason: 'receipt 5 without stat' });
  });
});
