import { useEffect, useRef, useState } from 'react';
import { formatMoney } from '../../../../shared/money';
import type { UsageDay } from '../../../../shared/schemas/balances';
import { Table } from '../../../components/ui/data-table';
import { formatDate } from '../../../lib/format';
import './billing.css';

/**
 * The per-day chart of messages and amount, with its text alternative: a summary sentence and
 * the same figures as a table. uPlot (and its CSS) load with the first chart, in their own
 * chunk reached only from this screen; if they cannot load, the table still tells everything.
 */
export function UsageChart({
  days,
  currency,
}: {
  days: readonly UsageDay[];
  currency: string;
}) {
  const target = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(true);

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    let chart: { destroy: () => void; resize: (w: number) => void } | null =
      null;
    let cancelled = false;
    const onResize = () => chart?.resize(element.clientWidth);
    import('./usage-chart-canvas')
      .then(({ drawUsageChart }) => {
        if (cancelled) return;
        chart = drawUsageChart(element, days, currency);
        window.addEventListener('resize', onResize);
        setDrawn(true);
      })
      .catch((error: unknown) => {
        console.warn('The usage chart could not be drawn', error);
        if (!cancelled) setDrawn(false);
      });
    return () => {
      cancelled = true;
      window.removeEventListener('resize', onResize);
      chart?.destroy();
    };
  }, [days, currency]);

  const totals = days.reduce(
    (sum, day) => ({
      messages: sum.messages + day.messages,
      segments: sum.segments + day.segments,
      // Summed on scaled integers (1/10000 of a unit), so many days add up exactly.
      tenThousandths: sum.tenThousandths + Math.round(day.amount * 10_000),
    }),
    { messages: 0, segments: 0, tenThousandths: 0 },
  );
  const first = days[0]?.date;
  const last = days.at(-1)?.date;
  if (!first || !last) return <p className="muted">No days in this period.</p>;
  const summary = `${totals.messages} ${totals.messages === 1 ? 'message' : 'messages'}, ${totals.segments} ${totals.segments === 1 ? 'segment' : 'segments'}, ${formatMoney(currency, totals.tenThousandths / 10_000)} from ${formatDate(first)} to ${formatDate(last)}.`;

  return (
    <figure className="usage-figure">
      <figcaption className="usage-summary">{summary}</figcaption>
      <div
        ref={target}
        className="usage-chart"
        role="img"
        aria-label={`Chart of messages and amount per day. ${summary}`}
        hidden={!drawn}
      />
      <details className="usage-table">
        <summary>Show the figures per day</summary>
        <Table
          rows={days}
          rowKey={(day) => day.date}
          columns={[
            {
              header: 'Day',
              label: null,
              cell: (day) => formatDate(day.date),
              className: 'nowrap',
            },
            { header: 'Messages', cell: (day) => day.messages, numeric: true },
            { header: 'Segments', cell: (day) => day.segments, numeric: true },
            {
              header: 'Amount',
              cell: (day) => formatMoney(currency, day.amount),
              numeric: true,
              className: 'amount',
            },
          ]}
          caption="Usage per day"
          card={false}
        />
      </details>
    </figure>
  );
}
