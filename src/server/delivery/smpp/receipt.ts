/**
 * Reading an SMSC's deliver_sm: a delivery receipt (esm_class message type 0x04, text
 * `id:… sub:… dlvrd:… submit date:… done date:… stat:… err:…` and/or the receipted_message_id
 * and message_state TLVs), or a mobile-originated message, which inbound.ts reads.
 */
import type { PDU } from 'smpp';
import { encodeGsm7 } from '../gsm7.ts';
import type { FinalState, Receipt } from '../types.ts';

export type DeliverSm =
  | { kind: 'receipt'; receipt: Receipt }
  /** ENROUTE, ACCEPTD…: the SMSC's news, not its final word. */
  | { kind: 'interim'; providerMessageId: string; stat: string }
  | { kind: 'mobile-originated' }
  | { kind: 'unreadable'; reason: string };

/** esm_class bits 2–5: the message type. */
const MESSAGE_TYPE_MASK = 0x3c;
const MC_DELIVERY_RECEIPT = 0x04;
const INTERMEDIATE_NOTIFICATION = 0x20;

/** Receipt `stat:` words (SMPP 3.4 appendix B, and the spelled-out variants some SMSCs use). */
const STATS: Record<string, FinalState | null> = {
  DELIVRD: 'DELIVERED',
  DELIVERED: 'DELIVERED',
  UNDELIV: 'UNDELIVERED',
  UNDELIVERABLE: 'UNDELIVERED',
  EXPIRED: 'EXPIRED',
  REJECTD: 'REJECTED',
  REJECTED: 'REJECTED',
  // Final, but no delivery: the message is gone without reaching the handset.
  DELETED: 'UNDELIVERED',
  UNKNOWN: 'UNDELIVERED',
  SKIPPED: 'UNDELIVERED',
  // Not final: the SMSC still works on it.
  ENROUTE: null,
  ACCEPTD: null,
  ACCEPTED: null,
  SCHEDULED: null,
};

/** message_state TLV values (SMPP 3.4 §5.2.28, 5.0 adds SKIPPED) as stat words. */
const MESSAGE_STATES: Record<number, string> = {
  0: 'SCHEDULED',
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
  9: 'SKIPPED',
};

/**
 * The receipt text as the SMSC sent it. The smpp library decodes data_coding 0 and 1 with its
 * GSM 03.38 table, which turns ASCII '_', '@', '$', '[' … into other letters; GSM-7 is a
 * bijection on 7-bit octets, so encoding back gives the SMSC's octets, read here as Latin-1.
 */
export function deliverSmText(pdu: PDU): string | null {
  const field = pdu.short_message ?? pdu.message_payload;
  const value: unknown =
    field && typeof field === 'object' && 'message' in field
      ? field.message
      : field;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (typeof value !== 'string') return null;
  const dataCoding = (pdu.data_coding ?? 0) & 0x0f;
  if (dataCoding !== 0 && dataCoding !== 1) return value;
  // Octets the library could not map came out as spaces: they stay spaces.
  return encodeGsm7(value, 0x20).toString('latin1');
}

const FIELDS = {
  id: /(?:^|\s)id:(\S*)/i,
  stat: /(?:^|\s)stat:(\S*)/i,
  err: /(?:^|\s)err:(\S*)/i,
};

/** `name:value` of the receipt text; names are matched case-insensitively. */
function field(text: string, name: keyof typeof FIELDS): string | undefined {
  return FIELDS[name].exec(text)?.[1];
}

function errorOf(stat: string, err: string | undefined): string {
  return err && !/^0+$/.test(err) ? `${stat} err:${err}` : stat;
}

export function readDeliverSm(pdu: PDU): DeliverSm {
  const esmClass = Number(pdu.esm_class ?? 0);
  const messageType = esmClass & MESSAGE_TYPE_MASK;
  const tlvId =
    typeof pdu.receipted_message_id === 'string'
      ? pdu.receipted_message_id.trim()
      : '';
  const text = deliverSmText(pdu) ?? '';
  // Without the message type, receipted_message_id makes a receipt only with its state (the
  // TLV or the text's stat:): some SMSCs give a mobile-originated message their id there.
  const isReceipt =
    messageType === MC_DELIVERY_RECEIPT ||
    messageType === INTERMEDIATE_NOTIFICATION ||
    (tlvId !== '' &&
      (typeof pdu.message_state === 'number' ||
        field(text, 'stat') !== undefined));
  if (!isReceipt) return { kind: 'mobile-originated' };

  const textId = field(text, 'id');
  const id = tlvId || textId;
  if (!id) return { kind: 'unreadable', reason: 'receipt without message id' };

  // The TLV is the structured form; the text is what older SMSCs send only.
  const tlvState =
    typeof pdu.message_state === 'number'
      ? MESSAGE_STATES[pdu.message_state]
      : undefined;
  const stat = (tlvState ?? field(text, 'stat') ?? '').toUpperCase();
  if (!stat)
    return { kind: 'unreadable', reason: `receipt ${id} without stat` };
  const state = STATS[stat];
  if (state === undefined) {
    return {
      kind: 'unreadable',
      reason: `receipt ${id} with unknown stat ${stat}`,
    };
  }
  if (state === null) return { kind: 'interim', providerMessageId: id, stat };
  return {
    kind: 'receipt',
    receipt: {
      providerMessageId: id,
      state,
      error: state === 'DELIVERED' ? null : errorOf(stat, field(text, 'err')),
    },
  };
}
