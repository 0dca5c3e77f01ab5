import { z } from 'zod';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A `since`/`until` query value: a calendar date (`YYYY-MM-DD`, a whole UTC day) or an ISO 8601
 * time with its offset. A date as `until` includes that whole day.
 */
export type DateOrTime =
  { kind: 'date'; date: string } | { kind: 'time'; at: string };

export const DateOrTimeSchema = z
  .string()
  .trim()
  .transform((text, ctx): DateOrTime => {
    if (DATE.test(text) && z.iso.date().safeParse(text).success) {
      return { kind: 'date', date: text };
    }
    if (z.iso.datetime({ offset: true }).safeParse(text).success) {
      const at = new Date(text);
      if (!Number.isNaN(at.getTime())) {
        return { kind: 'time', at: at.toISOString() };
      }
    }
    ctx.addIssue({
      code: 'custom',
      message: 'Expected a date (YYYY-MM-DD) or an ISO 8601 time',
    });
    return z.NEVER;
  });

/** The first instant a bound includes (`since`). */
export function startOf(bound: DateOrTime): string {
  return bound.kind === 'date' ? `${bound.date}T00:00:00.000Z` : bound.at;
}

/** The first instant after a bound (`until`): the next day's start for a date. */
export function endOf(bound: DateOrTime): string {
  if (bound.kind === 'time') {
    return new Date(new Date(bound.at).getTime() + 1).toISOString();
  }
  const next = new Date(`${bound.date}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

/** The UTC calendar date of a bound. */
export function dateOf(bound: DateOrTime): string {
  return bound.kind === 'date' ? bound.date : bound.at.slice(0, 10);
}
