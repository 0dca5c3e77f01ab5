import { z } from 'zod';
import { idOf } from '../../../shared/schemas/common';

/** The Numbers screen's filters, as its URL carries them (`?q=…&clientId=…`). */
export interface NumberFilter {
  q: string;
  clientId: string;
}

/** A typed number as it is stored: '+44 7700-900' is 447700900. */
const TYPED_NUMBER = /^[\d\s+\-().]+$/;

/**
 * Checked before they reach the URL, so the list is never asked with a filter the server
 * refuses: the start of a number (the spaces, '+' and '-' of a pasted one dropped) or words of
 * its help text, and a whole client ID.
 */
export const NumberFilterSchema = z.object({
  q: z
    .string()
    .trim()
    .max(100, 'Search text is too long')
    .transform((q) => (TYPED_NUMBER.test(q) ? q.replace(/\D/g, '') : q)),
  clientId: z.union([z.literal(''), idOf('Client ID')]),
});

/** The filters a URL carries. */
export function numberFilterOf(params: URLSearchParams): NumberFilter {
  return { q: params.get('q') ?? '', clientId: params.get('clientId') ?? '' };
}

/** `path?q=…&clientId=…&offset=n` with only what is set. */
export function numbersHref(
  path: string,
  filter: NumberFilter,
  offset = 0,
): string {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.clientId) params.set('clientId', filter.clientId);
  if (offset > 0) params.set('offset', String(offset));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
