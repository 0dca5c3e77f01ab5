import { useState } from 'react';
import { formatMoney } from '../../../../shared/money';
import type {
  LedgerEntry,
  LedgerKind,
} from '../../../../shared/schemas/balances';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { SectionCard } from '../../../components/ui/section-card';
import { errorText } from '../../../lib/api-error';
import { formatDateTime, formatPriceFrom } from '../../../lib/format';
import { useDownloadLedgerCsv } from '../api/download-ledger-csv';
import { HISTORY_PAGE_SIZE, useLedger } from '../api/get-ledger';
import './billing.css';

const KIND_TEXT: Record<LedgerKind, string> = {
  FREE_CREDIT: 'Free credit',
  SMS: 'SMS',
  REFUND: 'Refund',
};

/**
 * The price per segment a message was charged at and the prefix that set it (CONTRACT
 * "Destinations": null prefix for the default price), on the entries that carry it.
 */
export function ledgerPriceText(
  entry: LedgerEntry,
  currency: string,
): string | null {
  return entry.pricePerSegment === null
    ? null
    : formatPriceFrom(currency, entry.pricePerSegment, entry.pricePrefix);
}

/** A Download CSV button for one kind of ledger rows; a failure shows beside it. */
export function CsvButton({
  clientId,
  kind,
  fileName,
}: {
  clientId: string;
  kind: LedgerKind;
  fileName: string;
}) {
  const download = useDownloadLedgerCsv();
  return (
    <div className="history-csv">
      <Button
        size="sm"
        pending={download.isPending}
        onClick={() => download.mutate({ clientId, kind, fileName })}
      >
        Download CSV
      </Button>
      {download.error ? (
        <Alert tone="danger">{errorText(download.error)}</Alert>
      ) : null}
    </div>
  );
}

/** When a ledger row was written, the first column of both history tables. */
export const ledgerDateColumn: Column<LedgerEntry> = {
  header: 'Date',
  cell: (entry) => formatDateTime(entry.dateCreated),
  className: 'nowrap',
};

function topupColumns(currency: string): Column<LedgerEntry>[] {
  return [
    ledgerDateColumn,
    {
      header: 'Amount',
      cell: (entry) => formatMoney(currency, entry.amount),
      numeric: true,
      className: 'amount',
    },
    { header: 'Kind', cell: (entry) => KIND_TEXT[entry.kind] },
    {
      header: 'Reason',
      cell: (entry) => entry.reason ?? <span className="muted">No reason</span>,
    },
    {
      header: 'Balance after',
      cell: (entry) => formatMoney(currency, entry.balanceAfter),
      numeric: true,
      className: 'amount',
    },
  ];
}

/** The credits of the current client's balance, newest first, with the admin's reason. */
export function TopupHistory({
  clientId,
  currency,
}: {
  clientId: string;
  currency: string;
}) {
  return (
    <SectionCard
      title="Top-up History"
      className="stack"
      actions={
        <CsvButton
          clientId={clientId}
          kind="FREE_CREDIT"
          fileName="top-up-history.csv"
        />
      }
    >
      <LedgerTable
        clientId={clientId}
        kind="FREE_CREDIT"
        columns={topupColumns(currency)}
        noun="Top-ups"
        loadingLabel="Loading top-ups"
        empty="No top-ups yet."
        pagerLabel="Top-up pages"
      />
    </SectionCard>
  );
}

/**
 * A page of one kind of ledger rows, 20 a page. The page is local state: the two history tabs
 * on one screen cannot share the `offset` of the URL.
 */
export function LedgerTable({
  clientId,
  kind,
  columns,
  noun,
  loadingLabel,
  empty,
  pagerLabel,
}: {
  clientId: string;
  kind: LedgerKind;
  columns: Column<LedgerEntry>[];
  /** Names the rows in the table's caption: '{noun} 1 to 20 of 25'. */
  noun: string;
  loadingLabel: string;
  empty: string;
  pagerLabel: string;
}) {
  const [offset, setOffset] = useState(0);
  const ledger = useLedger({ clientId, kind, offset });
  return (
    <DataTable
      query={ledger}
      rows={(data) => data.entries}
      rowKey={(entry) => entry.id}
      columns={columns}
      caption={(entries, data) =>
        `${noun} ${offset + 1} to ${offset + entries.length} of ${data.total}`
      }
      loadingLabel={loadingLabel}
      empty={empty}
      card={false}
      pager={{
        label: pagerLabel,
        offset,
        pageSize: HISTORY_PAGE_SIZE,
        total: (data) => data.total,
        onPage: setOffset,
      }}
    />
  );
}
