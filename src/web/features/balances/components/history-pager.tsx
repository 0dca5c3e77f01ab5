import { Button } from '../../../components/ui/button';
import '../../../components/ui/pager.css';

/**
 * 'first–last of total' with Previous and Next buttons. The history tabs page in local state:
 * two tabs on one screen cannot share the `offset` of the URL.
 */
export function HistoryPager({
  label,
  offset,
  shown,
  total,
  pageSize,
  onPage,
}: {
  label: string;
  offset: number;
  shown: number;
  total: number;
  pageSize: number;
  onPage: (offset: number) => void;
}) {
  const last = offset + shown;
  if (offset === 0 && last >= total) return null;
  return (
    <nav className="pager" aria-label={label}>
      <p className="muted tabular" aria-live="polite">
        {offset + 1}–{last} of {total}
      </p>
      <div className="row">
        <Button
          size="sm"
          disabled={offset === 0}
          onClick={() => onPage(Math.max(0, offset - pageSize))}
        >
          Previous
        </Button>
        <Button
          size="sm"
          disabled={last >= total}
          onClick={() => onPage(offset + pageSize)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}
