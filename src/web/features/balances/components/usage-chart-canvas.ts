import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { designToken } from '../../../lib/design-token';
import type { UsageDay } from '../../../../shared/schemas/balances';

/** uPlot's columns: UTC midnights in seconds, messages per day, amount per day. */
export function usageChartData(days: readonly UsageDay[]): uPlot.AlignedData {
  return [
    days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
    days.map((day) => day.messages),
    days.map((day) => day.amount),
  ];
}

/**
 * Draws messages (bars, left axis) and amount (line, right axis) per UTC day into `target`.
 * Colours come from tokens.css so the admin accent and dark mode follow.
 */
export function drawUsageChart(
  target: HTMLElement,
  days: readonly UsageDay[],
  currency: string,
): { destroy: () => void; resize: (width: number) => void } {
  const accent = designToken('--color-accent', '#4338ca');
  const warning = designToken('--color-warning', '#a16207');
  const muted = designToken('--color-text-muted', '#555c69');
  const grid = designToken('--color-border', '#dfe2e7');
  const axis = { stroke: muted, grid: { stroke: grid, width: 1 } };
  const bars = uPlot.paths.bars?.({ size: [0.6, 24] });
  const chart = new uPlot(
    {
      width: Math.max(280, target.clientWidth),
      height: 240,
      // Days are UTC: the axis must not shift them into the browser's time zone.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: {
        // Half a day either side, so the first and last bars are drawn whole.
        x: { time: true, range: (_, min, max) => [min - 43_200, max + 43_200] },
        amount: { auto: true },
      },
      series: [
        {},
        {
          label: 'Messages',
          stroke: accent,
          fill: accent,
          paths: bars,
          points: { show: false },
        },
        {
          label: `Amount (${currency})`,
          stroke: warning,
          width: 2,
          scale: 'amount',
          value: (_, value) => (value == null ? '' : value.toFixed(2)),
        },
      ],
      axes: [
        axis,
        { ...axis, label: 'Messages' },
        {
          ...axis,
          scale: 'amount',
          side: 1,
          label: currency,
          grid: { show: false },
        },
      ],
    },
    usageChartData(days),
    target,
  );
  return {
    destroy: () => chart.destroy(),
    resize: (width) =>
      chart.setSize({ width: Math.max(280, width), height: 240 }),
  };
}
