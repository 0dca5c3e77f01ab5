import { useEffect, useRef, useState } from 'react';
import type { OperationsMethod } from '../../../../shared/schemas/operations';

type Chart = ReturnType<
  typeof import('./operations-chart-canvas').drawOperationsChart
>;

/**
 * Messages a minute per delivery method over the last hour, with a summary sentence as its text
 * alternative (the table above holds the figures). uPlot loads in its own chunk with the first
 * chart; each refresh updates the drawn chart rather than drawing a new one.
 */
export function OperationsChart({
  since,
  methods,
}: {
  since: string;
  methods: readonly OperationsMethod[];
}) {
  const target = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const [drawn, setDrawn] = useState(true);
  const names = methods.map((m) => m.method).join(',');
  const latest = useRef({ since, methods });
  latest.current = { since, methods };

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    let cancelled = false;
    const onResize = () => chart.current?.resize(element.clientWidth);
    import('./operations-chart-canvas')
      .then(({ drawOperationsChart }) => {
        if (cancelled) return;
        chart.current = drawOperationsChart(
          element,
          latest.current.since,
          latest.current.methods,
        );
        window.addEventListener('resize', onResize);
        setDrawn(true);
      })
      .catch((error: unknown) => {
        console.warn('The operations chart could not be drawn', error);
        if (!cancelled) setDrawn(false);
      });
    return () => {
      cancelled = true;
      window.removeEventListener('resize', onResize);
      chart.current?.destroy();
      chart.current = null;
    };
  }, [names]);

  useEffect(() => {
    chart.current?.update(since, methods);
  }, [since, methods]);

  const summary = methods
    .map((m) => {
      const total = m.perMinute.reduce((sum, n) => sum + n, 0);
      return `${m.method}: ${total} ${total === 1 ? 'message' : 'messages'}`;
    })
    .join(', ');
  return (
    <figure className="operations-figure">
      <figcaption className="muted">
        Messages a minute over the last hour. {summary}.
      </figcaption>
      <div
        ref={target}
        className="operations-chart"
        role="img"
        aria-label={`Chart of messages a minute per delivery method over the last hour. ${summary}.`}
        hidden={!drawn}
      />
    </figure>
  );
}
