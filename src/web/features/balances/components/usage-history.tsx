import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { formatMoney } from '../../../../shared/money';
import {
  UsagePeriodSchema,
  type LedgerEntry,
  type UsagePeriod,
} from '../../../../shared/schemas/balances';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { SectionCard } from '../../../components/ui/section-card';
import { paths } from '../../../config/paths';
import { Skeleton } from '../../../components/ui/spinner';
import type { Column } from '../../../components/ui/data-table';
import { errorText } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useUsage } from '../api/get-usage';
import {
  CsvButton,
  ledgerDateColumn,
  ledgerPriceText,
  LedgerTable,
} from './topup-history';
import { UsageChart } from './usage-chart';
import './billing.css';

const DAY_MS = 86_400_000;

/** The last 30 UTC days, today included: the contract's default range, made explicit. */
export function lastThirtyDays(now = new Date()): UsagePeriod {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { since: day(now.getTime() - 29 * DAY_MS), until: day(now.getTime()) };
}

/** The debits of the current client's balance and a per-day chart of a chosen period. */
export function UsageHistory({
  clientId,
  currency,
}: {
  clientId: string;
  currency: string;
}) {
  return (
    <SectionCard
      title="Usage History"
      className="stack"
      actions={
        <CsvButton
          clientId={clientId}
          kind="SMS"
          fileName="usage-history.csv"
        />
      }
    >
      <UsagePerDay clientId={clientId} currency={currency} />
      <Debits clientId={clientId} currency={currency} />
    </SectionCard>
  );
}

function UsagePerDay({
  clientId,
  currency,
}: {
  clientId: string;
  currency: string;
}) {
  const [period, setPeriod] = useState(lastThirtyDays);
  const usage = useUsage({ clientId, ...period });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<UsagePeriod>({
    resolver: zodResolver(UsagePeriodSchema),
    defaultValues: period,
  });

  return (
    <div className="stack-sm">
      <h3 className="subsection-title">Per day</h3>
      <form
        className="period-form"
        aria-label="Period"
        noValidate
        onSubmit={handleSubmit((chosen) => setPeriod(chosen))}
      >
        <Field
          label="Since"
          error={errors.since?.message ?? ''}
          inputProps={{ ...register('since'), type: 'date' }}
        />
        <Field
          label="Until"
          error={errors.until?.message ?? ''}
          inputProps={{ ...register('until'), type: 'date' }}
        />
        <Button
          type="submit"
          pending={usage.isFetching && usage.isPlaceholderData}
        >
          Show
        </Button>
      </form>
      {usage.isPending ? (
        <Skeleton height="240px" />
      ) : usage.isError ? (
        <Alert tone="danger">{errorText(usage.error)}</Alert>
      ) : (
        <UsageChart days={usage.data.days} currency={currency} />
      )}
    </div>
  );
}

function Debits({
  clientId,
  currency,
}: {
  clientId: string;
  currency: string;
}) {
  return (
    <div className="stack-sm">
      <h3 className="subsection-title">Messages paid</h3>
      <LedgerTable
        clientId={clientId}
        kind="SMS"
        columns={debitColumns(currency)}
        noun="Messages paid"
        loadingLabel="Loading usage"
        empty="No usage yet."
        pagerLabel="Usage pages"
      />
    </div>
  );
}

const unknown = <span className="muted">—</span>;

/**
 * A debit. The ledger entry carries the message's recipient and segments, so a page of debits
 * is one request; the message itself opens in the Message Log.
 */
function debitColumns(currency: string): Column<LedgerEntry>[] {
  return [
    ledgerDateColumn,
    {
      header: 'Message',
      className: 'usage-message',
      cell: (entry) =>
        entry.messageId ? (
          <Link
            to={paths.message(entry.messageId)}
            // Every row's link reads "View": the name says which message it opens.
            aria-label={`View the message${entry.recipient ? ` to ${entry.recipient}` : ''} of ${formatDateTime(entry.dateCreated)}`}
          >
            View
          </Link>
        ) : (
          unknown
        ),
    },
    {
      header: 'Recipient',
      cell: (entry) => entry.recipient ?? unknown,
      className: 'nowrap tabular',
    },
    {
      header: 'Segments',
      cell: (entry) => entry.segments ?? unknown,
      numeric: true,
    },
    {
      header: 'Price per segment',
      cell: (entry) => ledgerPriceText(entry, currency) ?? unknown,
      numeric: true,
      className: 'nowrap',
    },
    {
      header: 'Amount',
      // A debit is stored negative; the table shows what was spent.
      cell: (entry) => formatMoney(currency, Math.abs(entry.amount)),
      numeric: true,
      className: 'amount',
    },
  ];
}
