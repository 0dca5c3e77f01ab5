import { useState } from 'react';
import { formatMoney } from '../../../../shared/money';
import type { LedgerKind } from '../../../../shared/schemas/balances';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TableSkeleton } from '../../../components/ui/table-skeleton';
import { errorText } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useDownloadLedgerCsv } from '../api/download-ledger-csv';
import { HISTORY_PAGE_SIZE, useLedger } from '../api/get-ledger';
import { HistoryPager } from './history-pager';
import './billing.css';
import '../../../components/ui/table.css';

const KIND_TEXT: Record<LedgerKind, string> = {
  FREE_CREDIT: 'Free credit',
  SMS: 'SMS',
  REFUND: 'Refund',
};

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

/** The credits of the current client's balance, newest first, with the admin's reason. */
export function TopupHistory({
  clientId,
  currency,
}: {
  clientId: string;
  currency: string;
}) {
  const [offset, setOffset] = useState(0);
  const ledger = useLedger({ clientId, kind: 'FREE_CREDIT', offset });

  let content;
  if (ledger.isPending) {
    content = <TableSkeleton label="Loading top-ups" />;
  } else if (ledger.isError) {
    content = <Alert tone="danger">{errorText(ledger.error)}</Alert>;
  } else if (ledger.data.entries.length === 0) {
    content = <p className="muted">No top-ups yet.</p>;
  } else {
    const { entries, total } = ledger.data;
    content = (
      <>
        <div className="table-wrap">
          <table className="table" aria-busy={ledger.isPlaceholderData}>
            <caption className="sr-only">
              Top-ups {offset + 1} to {offset + entries.length} of {total}
            </caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="numeric">
                  Amount
                </th>
                <th scope="col">Kind</th>
                <th scope="col">Reason</th>
                <th scope="col" className="numeric">
                  Balance after
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td className="nowrap">
                    {formatDateTime(entry.dateCreated)}
                  </td>
                  <td className="numeric amount">
                    {formatMoney(currency, entry.amount)}
                  </td>
                  <td>{KIND_TEXT[entry.kind]}</td>
                  <td>
                    {entry.reason ?? <span className="muted">No reason</span>}
                  </td>
                  <td className="numeric amount">
                    {formatMoney(currency, entry.balanceAfter)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <HistoryPager
          label="Top-up pages"
          offset={offset}
          shown={entries.length}
          total={total}
          pageSize={HISTORY_PAGE_SIZE}
          onPage={setOffset}
        />
      </>
    );
  }

  return (
    <section className="card stack" aria-labelledby="topup-history-title">
      <div className="section-header">
        <h2 id="topup-history-title" className="section-title">
          Top-up History
        </h2>
        <CsvButton
          clientId={clientId}
          kind="FREE_CREDIT"
          fileName="top-up-history.csv"
        />
      </div>
      {content}
    </section>
  );
}
