import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { GSM7_BASIC_TABLE } from '../../../shared/gsm7.ts';
import { readMobileOriginated } from './inbound.ts';
import { readDeliverSm } from './receipt.ts';

/** A deliver_sm as the smpp library hands it over: encoded, then parsed back from bytes. */
function received(fields: Record<string, unknown>) {
  const pdu = new smpp.PDU('deliver_sm', {
    sequence_number: 1,
    source_addr: '447700900123',
    destination_addr: '447700900555',
    ...fields,
  });
  return new smpp.PDU(pdu.toBuffer());
}

function partOf(fields: Record<string, unknown>) {
  const pdu = received(fields);
  // Every case here is a mobile-originated message, not a receipt.
  expect(readDeliverSm(pdu)).toEqual({ kind: 'mobile-originated' });
  const read = readMobileOriginated(pdu);
  if (read.kind !== 'part') throw new Error(`unreadable: ${read.reason}`);
  return read.part;
}

const ucs2 = (text: string) => Buffer.from(text, 'utf16le').swap16();

describe('readMobileOriginated: text', () => {
  it('reads GSM 03.38 with the extension table, addresses as digits', () => {
    const text = 'Hi @£$¥ è_ΔΩ {€} [x] ~|^\\ ¿Ñ?\nline 2';
    expect(
      partOf({
        source_addr: '+447700900123',
        data_coding: 0,
        short_message: { message: text },
      }),
    ).toEqual({
      method: 'MELROSE_SMPP',
      providerMessageId: null,
      from: '447700900123',
      to: '447700900555',
      body: text,
      encoding: 'GSM-7',
      concat: null,
    });
  });

  it('reads every GSM octet as 03.38 says, whatever the library made of it', () => {
    const basic = Buffer.from(
      Array.from({ length: 128 }, (_, i) => i).filter((i) => i !== 0x1b),
    );
    expect(partOf({ data_coding: 0, short_message: basic }).body).toBe(
      GSM7_BASIC_TABLE.replace('\x1b', ''),
    );
    // An escape before a code with no extension character reads as the basic one; a trailing
    // escape as a space; an octet beyond 7 bits is no character (a space).
    const odd = Buffer.from([0x41, 0x1b, 0x41, 0x1b, 0x65, 0xc1, 0x1b]);
    expect(partOf({ data_coding: 0, short_message: odd }).body).toBe('AA€  ');
  });

  it('reads Latin-1, every octet', () => {
    const octets = Buffer.from(Array.from({ length: 255 }, (_, i) => i + 1));
    const part = partOf({ data_coding: 3, short_message: octets });
    expect(part.encoding).toBe('Latin-1');
    expect(part.body).toBe(octets.toString('latin1'));
    expect(
      partOf({
        data_coding: 3,
        short_message: Buffer.from('Grüße, señor £5 ©', 'latin1'),
      }).body,
    ).toBe('Grüße, señor £5 ©');
  });

  it('reads UCS-2 with surrogate pairs; a lone surrogate becomes U+FFFD', () => {
    const text = 'Привет 👋 你好 🇬🇧';
    const part = partOf({ data_coding: 8, short_message: ucs2(text) });
    expect(part).toMatchObject({ body: text, encoding: 'UCS-2' });
    const lone = Buffer.from([0xd8, 0x3d, 0x00, 0x41, 0xdc, 0x00]);
    expect(partOf({ data_coding: 8, short_message: lone }).body).toBe(
      '\uFFFDA\uFFFD',
    );
  });

  it('reads IA5 (data_coding 1) as ASCII, not as the library does (GSM)', () => {
    const text = 'Reply: a_b@c.com $5 [ok] {x}~';
    expect(
      partOf({ data_coding: 1, short_message: Buffer.from(text, 'ascii') }),
    ).toMatchObject({ body: text, encoding: 'Latin-1' });
  });

  it('reads message_payload when short_message is empty', () => {
    const text = 'A long reply. '.repeat(40);
    expect(
      partOf({ data_coding: 0, message_payload: { message: text } }).body,
    ).toBe(text);
    expect(
      partOf({ data_coding: 8, message_payload: ucs2(`${text}é✓`) }).body,
    ).toBe(`${text}é✓`);
  });
});

describe('readMobileOriginated: concatenation', () => {
  it('reads an 8-bit reference header and removes it from the text (GSM, UCS-2)', () => {
    const udh = Buffer.from([0x05, 0x00, 0x03, 0xab, 0x03, 0x02]);
    expect(
      partOf({ data_coding: 0, short_message: { udh, message: 'part two' } }),
    ).toMatchObject({
      body: 'part two',
      concat: { reference: 0xab, total: 3, part: 2 },
    });
    // UCS-2: the header's octets come before the UTF-16 text.
    expect(
      partOf({
        esm_class: 0x40,
        data_coding: 8,
        short_message: Buffer.concat([udh, ucs2('второй 👋')]),
      }),
    ).toMatchObject({
      body: 'второй 👋',
      encoding: 'UCS-2',
      concat: { reference: 0xab, total: 3, part: 2 },
    });
  });

  it('reads a 16-bit reference header among other elements', () => {
    // A port-addressing element (IEI 0x05) before the 16-bit concatenation one.
    const udh = Buffer.from([
      0x0c, 0x05, 0x04, 0x0b, 0x84, 0x23, 0xf0, 0x08, 0x04, 0x12, 0x34, 0x04,
      0x04,
    ]);
    expect(
      partOf({ data_coding: 3, short_message: { udh, message: 'last' } }),
    ).toMatchObject({
      body: 'last',
      concat: { reference: 0x1234, total: 4, part: 4 },
    });
  });

  it('reads the sar_* TLVs', () => {
    expect(
      partOf({
        data_coding: 0,
        short_message: { message: 'first' },
        sar_msg_ref_num: 0xbeef,
        sar_total_segments: 2,
        sar_segment_seqnum: 1,
      }),
    ).toMatchObject({
      body: 'first',
      concat: { reference: 0xbeef, total: 2, part: 1 },
    });
    // Not all three: not a part.
    expect(
      partOf({
        short_message: { message: 'x' },
        sar_msg_ref_num: 1,
        sar_total_segments: 2,
      }).concat,
    ).toBeNull();
  });

  it('hands a part beyond its total over as it is: the writer refuses it', () => {
    const udh = Buffer.from([0x05, 0x00, 0x03, 0x01, 0x02, 0x09]);
    expect(partOf({ short_message: { udh, message: 'odd' } }).concat).toEqual({
      reference: 1,
      total: 2,
      part: 9,
    });
  });
});

describe('readMobileOriginated: ids and refusals', () => {
  it('takes a receipted_message_id without a state as the message id', () => {
    const pdu = received({
      data_coding: 0,
      short_message: { message: 'STOP' },
      receipted_message_id: ' mo-77 ',
    });
    expect(readDeliverSm(pdu)).toEqual({ kind: 'mobile-originated' });
    expect(readMobileOriginated(pdu)).toMatchObject({
      kind: 'part',
      part: { providerMessageId: 'mo-77', body: 'STOP' },
    });
    // With its state, or a receipt text, it is a receipt.
    expect(
      readDeliverSm(received({ receipted_message_id: 'r1', message_state: 2 })),
    ).toMatchObject({ kind: 'receipt' });
    expect(
      readDeliverSm(
        received({
          receipted_message_id: 'r2',
          short_message: Buffer.from('id:r2 stat:DELIVRD err:000'),
        }),
      ),
    ).toMatchObject({ kind: 'receipt', receipt: { providerMessageId: 'r2' } });
  });

  it('keeps an alphanumeric sender as it is: the writer decides', () => {
    expect(
      partOf({ source_addr: ' ACME Bank ', short_message: Buffer.from('hi') })
        .from,
    ).toBe('ACME Bank');
  });

  it('refuses what can never be read', () => {
    const reason = (fields: Record<string, unknown>) => {
      const read = readMobileOriginated(received(fields));
      return read.kind === 'unreadable' ? read.reason : read.kind;
    };
    expect(reason({ source_addr: '', short_message: 'hi' })).toBe(
      'source_addr is empty',
    );
    expect(reason({ destination_addr: '', short_message: 'hi' })).toBe(
      'destination_addr is not a number',
    );
    expect(reason({ data_coding: 4, short_message: Buffer.from([1]) })).toBe(
      'data_coding 0x04 not taken (0, 1, 3 and 8 are)',
    );
    expect(reason({ data_coding: 0xf0, short_message: 'hi' })).toMatch(
      /^data_coding 0xf0 not taken/,
    );
  });
});
