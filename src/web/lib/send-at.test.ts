import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  localToIso,
  refineSendLater,
  sendAtOf,
  sendLaterShape,
  utcOffsetText,
} from './send-at';

const at = (offsetMinutes: number) =>
  ({ getTimezoneOffset: () => offsetMinutes }) as Date;

describe('send later', () => {
  it('names the UTC offset of a moment in the browser', () => {
    expect(utcOffsetText(at(-60))).toBe('UTC+01:00');
    expect(utcOffsetText(at(-330))).toBe('UTC+05:30');
    expect(utcOffsetText(at(300))).toBe('UTC-05:00');
    expect(utcOffsetText(at(0))).toBe('UTC+00:00');
  });

  it('sends the picked local time with its offset: the same instant', () => {
    const iso = localToIso('2026-12-01T09:30');
    expect(iso).toMatch(/^2026-12-01T09:30:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(iso ?? '')).toBe(new Date('2026-12-01T09:30').getTime());
    expect(localToIso('')).toBeNull();
    expect(localToIso('tomorrow')).toBeNull();
  });

  it("checks with the server's rule: not in the past, at most 35 days ahead", () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    const schema = z
      .object(sendLaterShape)
      .superRefine((values, ctx) => refineSendLater(values, ctx, () => now));
    const problem = (sendAt: string, sendLater = true) =>
      schema.safeParse({ sendLater, sendAt }).error?.issues[0]?.message ?? null;
    const local = (ms: number) => {
      const d = new Date(ms);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    };
    expect(problem('')).toBe('Pick the date and time to send at');
    expect(problem('', false)).toBeNull();
    expect(problem(local(now - 3_600_000))).toBe(
      'Send at must not be in the past',
    );
    expect(problem(local(now + 36 * 86_400_000))).toBe(
      'Send at must be at most 35 days ahead',
    );
    expect(problem(local(now + 3_600_000))).toBeNull();
    expect(sendAtOf({ sendLater: false, sendAt: local(now) })).toEqual({});
  });
});
