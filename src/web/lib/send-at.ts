import { z } from 'zod';
import { sendAtSchema } from '../../shared/schemas/campaigns';

/**
 * "Send later" in the console's forms (CONTRACT "Campaigns"): a date-time picked in the
 * browser's time zone, sent as ISO 8601 with that zone's offset on that day, and checked with
 * the server's own rule (sendAtSchema) before sending.
 */

/** The form fields: the box, and the picker's `YYYY-MM-DDTHH:mm` in local time. */
export const sendLaterShape = {
  sendLater: z.boolean(),
  sendAt: z.string(),
};
export interface SendLaterValues {
  sendLater: boolean;
  sendAt: string;
}
export const SEND_LATER_DEFAULTS: SendLaterValues = {
  sendLater: false,
  sendAt: '',
};

/** `UTC+01:00` (or `UTC-05:30`, `UTC+00:00`): the browser's offset from UTC at `date`. */
export function utcOffsetText(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
}

/** The browser's time zone by name (`Europe/Berlin`), when it has one. */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

/**
 * A picker's local `YYYY-MM-DDTHH:mm` as ISO 8601 with the local offset of that moment
 * (`2026-12-01T09:00:00+01:00`), or null when it is not a date-time.
 */
export function localToIso(local: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2})?$/.exec(local);
  if (!match) return null;
  const date = new Date(local);
  if (Number.isNaN(date.getTime())) return null;
  return `${match[1]}${match[2] ?? ':00'}${utcOffsetText(date).slice(3)}`;
}

/** Checks the send-later fields in a form schema's superRefine: the problem goes under sendAt. */
export function refineSendLater(
  values: SendLaterValues,
  ctx: z.RefinementCtx,
  now: () => number = Date.now,
): void {
  if (!values.sendLater) return;
  const iso = localToIso(values.sendAt);
  const problem =
    iso === null
      ? 'Pick the date and time to send at'
      : sendAtSchema(now).safeParse(iso).error?.issues[0]?.message;
  if (problem)
    ctx.addIssue({ code: 'custom', path: ['sendAt'], message: problem });
}

/** The `sendAt` to send: the ISO instant when sending later, else nothing. */
export function sendAtOf(values: SendLaterValues): { sendAt?: string } {
  const iso = values.sendLater ? localToIso(values.sendAt) : null;
  return iso ? { sendAt: iso } : {};
}
