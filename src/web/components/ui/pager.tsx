import { ButtonLink } from './button';
import './pager.css';

/**
 * 'first–last of total' with Previous and Next links for a table shown a page at a time. The
 * offset lives in the URL (`hrefFor`), so a page survives a reload and the Back button.
 */
export function Pager({
  label,
  offset,
  shown,
  total,
  pageSize,
  hrefFor,
}: {
  label: string;
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
  hrefFor: (offset: number) => string;
}) {
  const last = offset + shown;
  return (
    <nav className="pager" aria-label={label}>
      <p className="muted tabular" aria-live="polite">
        {offset + 1}–{last} of {total}
      </p>
      <div className="row">
        {offset > 0 ? (
          <ButtonLink size="sm" to={hrefFor(Math.max(0, offset - pageSize))}>
            Previous
          </ButtonLink>
        ) : null}
        {last < total ? (
          <ButtonLink size="sm" to={hrefFor(offset + pageSize)}>
            Next
          </ButtonLink>
        ) : null}
      </div>
    </nav>
  );
}

/** A page offset read from the URL: a whole number, anything else is the first page. */
export function offsetParam(value: string | null): number {
  const offset = Number(value);
  return Number.isSafeInteger(offset) && offset > 0 ? offset : 0;
}

/** `path?offset=n`, or just `path` for the first page; a search query `q` is kept. */
export function pageHref(path: string, offset: number, q = ''): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (offset > 0) params.set('offset', String(offset));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
