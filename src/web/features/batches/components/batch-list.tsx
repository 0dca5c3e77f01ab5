import { Link, useSearchParams } from 'react-router';
import { formatMoney } from '../../../../shared/money';
import type { Batch } from '../../../../shared/schemas/campaigns';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { offsetParam } from '../../../components/ui/pager';
import { SectionCard } from '../../../components/ui/section-card';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { BATCH_PAGE_SIZE, useBatches } from '../api/get-batches';
import { BatchProgress } from './batch-progress';
import './batches.css';

/**
 * The client's batches, newest first, each with its progress (asked again while some are on
 * their way); a batch's date opens its page. The page is `?offset=` of the screen.
 */
export function BatchList({
  clientId,
  currency,
}: {
  clientId: string;
  currency: string;
}) {
  const [params] = useSearchParams();
  const offset = offsetParam(params.get('offset'));
  const batches = useBatches(clientId, offset);
  const columns: Column<Batch>[] = [
    {
      header: 'Created',
      label: null,
      className: 'nowrap',
      cell: (batch) => (
        <Link className="row-link-target" to={paths.batch(batch.id)}>
          {formatDateTime(batch.dateCreated)}
        </Link>
      ),
    },
    {
      header: 'Send at',
      cell: (batch) =>
        batch.sendAt ? formatDateTime(batch.sendAt) : 'At once',
    },
    { header: 'Recipients', cell: (batch) => batch.total, numeric: true },
    {
      header: 'Amount',
      cell: (batch) => formatMoney(currency, batch.amount),
      numeric: true,
    },
    {
      header: 'Progress',
      cell: (batch) => <BatchProgress batch={batch} compact />,
    },
  ];
  return (
    <SectionCard title="Batches" className="stack-sm">
      <DataTable
        card={false}
        query={batches}
        rows={(data) => data.batches}
        rowKey={(batch) => batch.id}
        rowClassName={() => 'row-link'}
        columns={columns}
        caption={(rows, data) =>
          `Batches ${offset + 1} to ${offset + rows.length} of ${data.total}`
        }
        loadingLabel="Loading batches"
        skeletonRows={3}
        errorPrefix="The batches could not be loaded. "
        empty="No batches yet. Batches you send appear here with their progress."
        pager={{
          label: 'Batch pages',
          offset,
          pageSize: BATCH_PAGE_SIZE,
          total: (data) => data.total,
          hrefFor: (to) => `${paths.bulk}${to > 0 ? `?offset=${to}` : ''}`,
        }}
      />
    </SectionCard>
  );
}
