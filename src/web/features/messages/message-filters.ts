import { z } from 'zod';
import { cleanRecipient } from '../../../shared/recipient';
import {
  isMessageState,
  MESSAGE_STATES,
  type MessageState,
} from './message-log-model';

/**
 * The log's filters as they live in the URL (`?state=…&recipient=…&since=…&until=…&batchId=…&offset=…`),
 * so a filtered page survives a reload, a shared link and the Back button. Dates are calendar
 * days in the browser's time zone; the API gets them as ISO 8601 instants.
 */
export interface MessageFilters {
  state?: MessageState;
  recipient?: string;
  /** `YYYY-MM-DD`: from the start of this day. */
  since?: string;
  /** `YYYY-MM-DD`: to the end of this day. */
  until?: string;
  /** Only the messages of this batch (a batch page links here). */
  batchId?: string;
}

const BATCH_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  return DAY.test(value) && !Number.isNaN(startOfDay(value).getTime());
}

/** Local midnight of a `YYYY-MM-DD` day (a date-only ISO string would be read as UTC). */
function startOfDay(day: string): Date {
  return new Date(`${day}T00:00:00`);
}

/** The filters named by a URL's query; anything malformed is ignored rather than sent. */
export function filtersFromSearch(params: URLSearchParams): MessageFilters {
  const filters: MessageFilters = {};
  const state = params.get('state') ?? '';
  if (isMessageState(state)) filters.state = state;
  const recipient = cleanRecipient(params.get('recipient') ?? '');
  if (/^\d{1,15}$/.test(recipient)) filters.recipient = recipient;
  const since = params.get('since') ?? '';
  if (isDay(since)) filters.since = since;
  const until = params.get('until') ?? '';
  if (isDay(until)) filters.until = until;
  const batchId = params.get('batchId') ?? '';
  if (BATCH_ID.test(batchId)) filters.batchId = batchId;
  return filters;
}

/** The query of a log page: its filters and, past the first page, its offset. */
export function searchFor(filters: MessageFilters, offset = 0): string {
  const params = new URLSearchParams();
  for (const key of [
    'state',
    'recipient',
    'since',
    'until',
    'batchId',
  ] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (offset > 0) params.set('offset', String(offset));
  const search = params.toString();
  return search ? `?${search}` : '';
}

export function hasFilters(filters: MessageFilters): boolean {
  return Boolean(
    filters.state ||
    filters.recipient ||
    filters.since ||
    filters.until ||
    filters.batchId,
  );
}

/** The filters as the API's query (CONTRACT.md: `since`/`until` in ISO 8601). */
export function filtersQuery(
  filters: MessageFilters,
): Record<string, string | undefined> {
  let until: string | undefined;
  if (filters.until) {
    // The whole `until` day is included: up to the last millisecond before the next midnight.
    const next = startOfDay(filters.until);
    next.setDate(next.getDate() + 1);
    until = new Date(next.getTime() - 1).toISOString();
  }
  return {
    state: filters.state,
    recipient: filters.recipient,
    since: filters.since ? startOfDay(filters.since).toISOString() : undefined,
    until,
    batchId: filters.batchId,
  };
}

/** The filter form: every field may be empty; the range must not run backwards. */
export const MessageFiltersFormSchema = z
  .object({
    state: z.union([z.literal(''), z.enum(MESSAGE_STATES)]),
    recipient: z
      .string()
      .transform(cleanRecipient)
      .refine(
        (value) => value === '' || /^\d{1,15}$/.test(value),
        'Enter the digits of a phone number',
      ),
    since: z.string().refine((value) => value === '' || isDay(value), {
      message: 'Enter a date',
    }),
    until: z.string().refine((value) => value === '' || isDay(value), {
      message: 'Enter a date',
    }),
  })
  .refine((form) => !form.since || !form.until || form.since <= form.until, {
    message: 'Until must not be before Since',
    path: ['until'],
  });
export type MessageFiltersForm = z.input<typeof MessageFiltersFormSchema>;
export type MessageFiltersValues = z.output<typeof MessageFiltersFormSchema>;

export function formFromFilters(filters: MessageFilters): MessageFiltersForm {
  return {
    state: filters.state ?? '',
    recipient: filters.recipient ?? '',
    since: filters.since ?? '',
    until: filters.until ?? '',
  };
}

export function filtersFromForm(form: MessageFiltersValues): MessageFilters {
  return {
    state: form.state || undefined,
    recipient: form.recipient || undefined,
    since: form.since || undefined,
    until: form.until || undefined,
  };
}
