/**
 * A mobile-originated deliver_sm (one whose esm_class message type is not a receipt: see
 * readDeliverSm in receipt.ts) as the InboundPart the one inbound writer takes (CONTRACT
 * "Two-way messaging", SMPP): source_addr is the sender, destination_addr our number, the
 * text decoded from data_coding 0 (GSM 03.38), 1 (IA5), 3 (Latin-1) or 8 (UCS-2), and the
 * concatenation of a part read from its user data header (IEI 0x00, 8-bit reference; IEI
 * 0x08, 16-bit reference) or from the sar_* TLVs.
 *
 * The smpp library has already split the user data header from the text and decoded the text
 * (see smpp.d.ts). Latin-1 and UCS-2 it decodes losslessly (a UCS-2 byte-order mark at the
 * start is dropped, an odd last octet ignored). Its GSM 03.38 decoding is not the standard's
 * (an escape before a code with no extension character stays an escape, a trailing escape
 * too) but it is reversible on every 7-bit octet, so the octets are re-encoded with its own
 * table and decoded by ours (gsm7.ts), the one alphabet the rest of the code prices and sends
 * with. GSM text over SMPP is one septet per octet, not packed: the header is whole octets and
 * no fill bits follow it. With a national language shift header (IEI 0x24/0x25) the library's
 * reading of that national table is kept: ours knows only the default one.
 */
import smpp from 'smpp';
import type { PDU } from 'smpp';
import type { InboundEncoding, InboundPart } from '../../inbound/types.ts';
import { decodeGsm7, decodeUcs2 } from '../gsm7.ts';
import { providerId } from '../provider-text.ts';

export type MobileOriginated =
  | { kind: 'part'; part: InboundPart }
  /** Never readable, however often the SMSC sends it: answered with a permanent error. */
  | { kind: 'unreadable'; reason: string };

/** SMPP data_coding values taken, as the inbound encoding stored. */
const ENCODINGS: Record<number, InboundEncoding> = {
  0x00: 'GSM-7',
  // IA5 (ASCII): not named by the contract, but some SMSCs send it; ASCII is Latin-1's first
  // half, and refusing would lose the text.
  0x01: 'Latin-1',
  0x03: 'Latin-1',
  0x08: 'UCS-2',
};
const IA5 = 0x01;

/** User data header information elements: concatenation, national language shift tables. */
const IEI_CONCAT_8 = 0x00;
const IEI_CONCAT_16 = 0x08;
const IEI_SINGLE_SHIFT = 0x24;
const IEI_LOCKING_SHIFT = 0x25;

/** An address as digits: an international number, with or without '+'. */
function digitsOf(address: unknown): string | null {
  if (typeof address !== 'string') return null;
  const match = /^\+?(\d{1,20})$/.exec(address.trim());
  return match ? match[1]! : null;
}

/**
 * The sender: a number's digits, or an alphanumeric sender as it is (a service replying from
 * its name); which senders can be stored is the inbound writer's rule, as for every method.
 */
function senderOf(address: unknown): string | null {
  if (typeof address !== 'string') return null;
  const sender = address.trim();
  return digitsOf(sender) ?? (sender === '' ? null : sender);
}

type Concat = InboundPart['concat'];

/** The concatenation element of a user data header (the library's list of elements). */
function udhConcat(elements: readonly Buffer[]): Concat {
  for (const element of elements) {
    if (
      element[0] === IEI_CONCAT_8 &&
      element[1] === 3 &&
      element.length === 5
    ) {
      return { reference: element[2]!, total: element[3]!, part: element[4]! };
    }
    if (
      element[0] === IEI_CONCAT_16 &&
      element[1] === 4 &&
      element.length === 6
    ) {
      return {
        reference: element.readUInt16BE(2),
        total: element[4]!,
        part: element[5]!,
      };
    }
  }
  return null;
}

/** SMPP's own way to say the same: the three sar_* TLVs, all or none. */
function sarConcat(pdu: PDU): Concat {
  const reference: unknown = pdu.sar_msg_ref_num;
  const total: unknown = pdu.sar_total_segments;
  const part: unknown = pdu.sar_segment_seqnum;
  if (
    typeof reference !== 'number' ||
    typeof total !== 'number' ||
    typeof part !== 'number'
  ) {
    return null;
  }
  return { reference, total, part };
}

interface UserData {
  udh: Buffer[];
  message: string | Buffer;
}

/**
 * short_message, or message_payload when short_message is empty (SMPP allows one of the two;
 * a long MO comes in message_payload). The library decodes both the same way.
 */
function userData(pdu: PDU): UserData {
  const read = (field: unknown): UserData | null => {
    if (Buffer.isBuffer(field)) return { udh: [], message: field };
    if (field && typeof field === 'object' && 'message' in field) {
      const { udh, message } = field as { udh?: unknown; message: unknown };
      if (typeof message !== 'string' && !Buffer.isBuffer(message)) return null;
      return { udh: Array.isArray(udh) ? (udh as Buffer[]) : [], message };
    }
    return null;
  };
  const short = read(pdu.short_message);
  if (short && (short.message.length > 0 || short.udh.length > 0)) {
    return short;
  }
  return read(pdu.message_payload) ?? short ?? { udh: [], message: '' };
}

function gsmText({ udh, message }: UserData): string {
  if (Buffer.isBuffer(message)) return decodeGsm7(message);
  const shift = udh.some(
    (e) => e[0] === IEI_SINGLE_SHIFT || e[0] === IEI_LOCKING_SHIFT,
  );
  if (shift) return message;
  // Octets ≥ 0x80 (not GSM 03.38) came out of the library as spaces and stay spaces.
  return decodeGsm7(smpp.gsmCoder.encode(message, 0x00));
}

function textOf(
  data: UserData,
  dataCoding: number,
  encoding: InboundEncoding,
): string {
  const { message } = data;
  if (dataCoding === IA5 && typeof message === 'string') {
    // The library read the octets as GSM 03.38: back to them (7 bits each), read as ASCII.
    return smpp.gsmCoder.encode(message, 0x00).toString('latin1');
  }
  switch (encoding) {
    case 'GSM-7':
      return gsmText(data);
    case 'Latin-1':
      return Buffer.isBuffer(message) ? message.toString('latin1') : message;
    case 'UCS-2':
      // A surrogate without its partner (a broken phone, a part cut mid-pair) cannot be
      // stored: U+FFFD in its place.
      return (
        Buffer.isBuffer(message) ? decodeUcs2(message) : message
      ).toWellFormed();
  }
}

export function readMobileOriginated(pdu: PDU): MobileOriginated {
  const from = senderOf(pdu.source_addr);
  if (from === null) {
    return { kind: 'unreadable', reason: 'source_addr is empty' };
  }
  const to = digitsOf(pdu.destination_addr);
  if (to === null) {
    return { kind: 'unreadable', reason: 'destination_addr is not a number' };
  }
  const dataCoding = Number(pdu.data_coding ?? 0);
  const encoding = ENCODINGS[dataCoding];
  if (!encoding) {
    return {
      kind: 'unreadable',
      reason: `data_coding 0x${dataCoding.toString(16).padStart(2, '0')} not taken (0, 1, 3 and 8 are)`,
    };
  }
  const data = userData(pdu);
  // The header is the message's own statement; the TLVs are what SMSCs use instead of one.
  const concat = udhConcat(data.udh) ?? sarConcat(pdu);
  // SMPP gives a mobile-originated message no id. Some SMSCs put theirs in
  // receipted_message_id (readDeliverSm tells that from a receipt): the writer then stores a
  // redelivery once. Without it every deliver_sm is a message of its own.
  const tlvId =
    typeof pdu.receipted_message_id === 'string'
      ? pdu.receipted_message_id.trim()
      : '';
  return {
    kind: 'part',
    part: {
      method: 'MELROSE_SMPP',
      providerMessageId: tlvId ? providerId(tlvId) : null,
      from,
      to,
      body: textOf(data, dataCoding, encoding),
      encoding,
      concat,
    },
  };
}
