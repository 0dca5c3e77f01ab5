/** A date as the console shows it: 'Nov 23, 2026' in the browser's language. */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
}

/** A moment as the console shows it: 'Nov 23, 2026, 14:05' in the browser's language. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** When a client's secret last authenticated a call (CONTRACT.md), or 'Never'. */
export function formatLastUsed(iso: string | null | undefined): string {
  return iso ? formatDateTime(iso) : 'Never';
}
