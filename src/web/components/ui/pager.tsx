import { Button, ButtonLink } from './button';
import './pager.css';

/** Where Previous and Next go: a URL (`hrefFor`) or local state (`onPage`). */
export type PageTarget =
  | { hrefFor: (offset: number) => string; onPage?: undefined }
  | { onPage: (offset: number) => void; hrefFor?: undefined };

export type PagerProps = {
  label: string;
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
} & PageTarget;

/**
 * 'first–last of total' with Previous and Next for a table shown a page at a time. With
 * `hrefFor` the offset lives in the URL (a page survives a reload and the Back button) and a
 * page that does not exist has no link. With `onPage` (two tables on one screen cannot share
 * the URL's `offset`) they are buttons, disabled at either end, and one page needs no pager.
 */
export function Pager(props: PagerProps) {
  const { label, offset, shown, total, pageSize, onPage, hrefFor } = props;
  const last = offset + shown;
  const pages = [
    {
      text: 'Previous',
      to: Math.max(0, offset - pageSize),
      exists: offset > 0,
    },
    { text: 'Next', to: offset + pageSize, exists: last < total },
  ];
  if (onPage && !pages.some((page) => page.exists)) return null;
  return (
    <nav className="pager" aria-label={label}>
      <p className="muted tabular" aria-live="polite">
        {offset + 1}–{last} of {total}
      </p>
      <div className="row">
        {pages.map(({ text, to, exists }) =>
          onPage ? (
            <Button
              key={text}
              size="sm"
              disabled={!exists}
              onClick={() => onPage(to)}
            >
              {text}
            </Button>
          ) : exists && hrefFor ? (
            <ButtonLink key={text} size="sm" to={hrefFor(to)}>
              {text}
            </ButtonLink>
          ) : null,
        )}
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
