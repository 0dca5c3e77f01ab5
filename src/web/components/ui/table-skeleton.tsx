import { Skeleton } from './spinner';
import './table.css';

/** Rows of grey bars while a table loads, announced as loading. */
export function TableSkeleton({
  label,
  rows = 5,
}: {
  label: string;
  rows?: number;
}) {
  return (
    <div className="stack-sm" aria-busy="true">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        <Skeleton key={index} height="40px" />
      ))}
    </div>
  );
}
