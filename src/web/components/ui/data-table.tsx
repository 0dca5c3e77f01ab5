import type { ReactNode } from 'react';
import { errorText } from '../../lib/api-error';
import { cx } from '../../lib/cx';
import { Alert } from './alert';
import { Button } from './button';
import { Pager, type PageTarget } from './pager';
import { TableSkeleton } from './table-skeleton';
import './table.css';

/** One column: its header, what a row shows in it, and its label on a phone's card. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /**
   * Written before the value when the row is a card (phones); `null` for a cell that speaks
   * for itself (the row's title, a badge). The header by default.
   */
  label?: string | null;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  className?: string;
}

/** The part of a TanStack Query result a table reads. */
export interface TableQuery<Data> {
  isPending: boolean;
  isError: boolean;
  isPlaceholderData: boolean;
  error: unknown;
  data: Data | undefined;
  refetch: () => unknown;
}

export interface DataTableProps<Data, Row> {
  query: TableQuery<Data>;
  rows: (data: Data) => Row[];
  rowKey: (row: Row) => string;
  columns: Column<Row>[];
  /** The table's accessible name, usually which rows of how many it shows. */
  caption: (rows: Row[], data: Data) => string;
  /** Read out while the rows load. */
  loadingLabel: string;
  skeletonRows?: number;
  /** Put before the server's reason when the rows cannot be loaded. */
  errorPrefix?: string;
  /** Said when there are no rows, with `emptyAction` (a link) under it. */
  empty: string;
  emptyAction?: ReactNode;
  /** Shown above the rows once they are there. */
  note?: (data: Data) => ReactNode;
  /** A page at a time: the pager under the rows (its `shown` is the rows' count). */
  pager?: {
    label: string;
    offset: number;
    pageSize: number;
    total: (data: Data) => number;
  } & PageTarget;
  rowClassName?: (row: Row) => string | undefined;
  className?: string;
  /** False inside a card already: no card of its own, a plain empty text. */
  card?: boolean;
}

/**
 * A list as a table, with what every list needs around it: grey rows while it loads, the
 * reason and Try again when it fails, a sentence when it is empty, and the pager. On a phone
 * each row becomes a card of `label: value` lines (table.css), so nothing scrolls sideways.
 */
export function DataTable<Data, Row>({
  query,
  rows,
  rowKey,
  columns,
  caption,
  loadingLabel,
  skeletonRows,
  errorPrefix = '',
  empty,
  emptyAction,
  note,
  pager,
  rowClassName,
  className,
  card = true,
}: DataTableProps<Data, Row>) {
  if (query.isPending) {
    return <TableSkeleton label={loadingLabel} rows={skeletonRows} />;
  }
  if (query.isError || query.data === undefined) {
    return (
      <div className="stack-sm">
        <Alert tone="danger">{`${errorPrefix}${errorText(query.error)}`}</Alert>
        <div>
          <Button onClick={() => void query.refetch()}>Try again</Button>
        </div>
      </div>
    );
  }
  const data = query.data;
  const shown = rows(data);
  if (shown.length === 0) {
    return (
      <div className={cx(card && 'card empty-state', 'stack-sm')}>
        <p className={card ? 'empty-text' : 'muted'}>{empty}</p>
        {emptyAction ? <div>{emptyAction}</div> : null}
      </div>
    );
  }
  return (
    <div className="stack-sm">
      {note?.(data)}
      <Table
        rows={shown}
        rowKey={rowKey}
        columns={columns}
        caption={caption(shown, data)}
        busy={query.isPlaceholderData}
        rowClassName={rowClassName}
        className={className}
        card={card}
      />
      {pager ? (
        <Pager {...pager} shown={shown.length} total={pager.total(data)} />
      ) : null}
    </div>
  );
}

/** The table of DataTable alone, for rows already at hand; a card of lines per row on a phone. */
export function Table<Row>({
  rows,
  rowKey,
  columns,
  caption,
  busy = false,
  rowClassName,
  className,
  card = true,
}: {
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: Column<Row>[];
  caption: string;
  busy?: boolean;
  rowClassName?: (row: Row) => string | undefined;
  className?: string;
  card?: boolean;
}) {
  return (
    <div className={cx('table-wrap', card && 'card')}>
      <table className={cx('table data-table', className)} aria-busy={busy}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={column.numeric ? 'numeric' : undefined}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)}>
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={cx(
                    column.numeric && 'numeric tabular',
                    column.className,
                  )}
                  data-label={
                    column.label === undefined
                      ? column.header
                      : (column.label ?? undefined)
                  }
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
