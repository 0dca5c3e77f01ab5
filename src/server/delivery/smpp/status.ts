/** SMPP command statuses the connector and its bind tell apart, and how they are logged. */
import smpp from 'smpp';

/** submit_sm_resp statuses worth trying again later on the same SMSC. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([
  0x08, // ESME_RSYSERR
  0x64, // ESME_RX_T_APPN temporary application error
  0xfe, // ESME_RDELIVERYFAILURE (SMPP 5.0)
  0xff, // ESME_RUNKNOWNERR
]);
export const THROTTLE_STATUSES: ReadonlySet<number> = new Set([0x58, 0x14]);
export const ESME_RINVBNDSTS = 0x04;
/** deliver_sm_resp status asking the SMSC to deliver the receipt again later. */
export const ESME_RX_T_APPN = 0x64;
/** deliver_sm_resp status: never deliverable to us, the SMSC should not offer it again. */
export const ESME_RX_P_APPN = 0x65;

const STATUS_NAMES = new Map<number, string>(
  Object.entries(smpp.errors).map(([name, code]) => [code, name]),
);

export function describeStatus(status: number): string {
  const hex = `0x${status.toString(16).padStart(2, '0')}`;
  const name = STATUS_NAMES.get(status);
  return name ? `${hex} ${name}` : hex;
}
