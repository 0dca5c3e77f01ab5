import { useEffect, useRef, useState } from 'react';
import { formatMoney } from '../../../../shared/money';
import type { UsageDay } from '../../../../shared/schemas/balances';
import '../../../components/ui/table.css';
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
  const summary = `${totals.messages} ${totals.messages === 1 ? 'message' : 'messages'}, ${totals.segments} ${totals.segments === 1 ? 'segment' : 'segments'}, ${formatMoney(currency, totals.tenThousandths / 10_000)} from ${first} to ${last}.`;

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
        <div className="table-wrap">
          <table className="table">
            <caption className="sr-only">Usage per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="numeric">
                  Messages
                </th>
                <th scope="col" className="numeric">
                  Segments
                </th>
                <th scope="col" className="numeric">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <td className="nowrap tabular">{day.date}</td>
                  <td className="numeric tabular">{day.messages}</td>
                  <td className="numeric tabular">{day.segments}</td>
                  <td className="numeric amount">
                    {formatMoney(currency, day.amount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
