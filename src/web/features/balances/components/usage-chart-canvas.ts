import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { designToken } from '../../../lib/design-token';
import type { UsageDay } from '../../../../shared/schemas/balances';
import { formatDate } from '../../../lib/format';

/** uPlot's columns: UTC midnights in seconds, messages per day, amount per day. */
export function usageChartData(days: readonly UsageDay[]): uPlot.AlignedData {
  return [
    days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
    days.map((day) => day.messages),
    days.map((day) => day.amount),
  ];
}

interface ChartColours {
  accent: string;
  warning: string;
  muted: string;
  grid: string;
}

/**
 * The chart's options. Both figures are daily totals, so both are bars side by side on their
 * day (messages left, left axis; amount right, right axis), never a line ramping between two
 * days. Until the pointer is over a day the legend shows the latest day, not empty dashes;
 * days read as everywhere in the console (formatDate).
 */
export function usageChartOptions(
  days: readonly UsageDay[],
  currency: string,
  width: number,
  colours: ChartColours,
): uPlot.Options {
  const { accent, warning, muted, grid } = colours;
  const axis = { stroke: muted, grid: { stroke: grid, width: 1 } };
  const bars = (align: -1 | 1) =>
    uPlot.paths.bars?.({ size: [0.4, 16], align });
  const latest = days.length - 1;
  /** The legend's figure: the day under the pointer, else the latest day. */
  const shown = (idx: number | null, figure: (day: UsageDay) => string) => {
    const day = days[idx ?? latest];
    return day ? figure(day) : '';
  };
  return {
    width: Math.max(280, width),
    height: 240,
    // Days are UTC: the axis must not shift them into the browser's time zone.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: {
      // Half a day either side, so the first and last bars are drawn whole.
      x: { time: true, range: (_, min, max) => [min - 43_200, max + 43_200] },
      amount: { auto: true, range: (_, __, max) => [0, max > 0 ? max : 1] },
    },
    series: [
      {
        label: 'Day',
        value: (_, __, ___, idx) => shown(idx, (day) => formatDate(day.date)),
      },
      {
        label: 'Messages',
        stroke: accent,
        fill: accent,
        paths: bars(-1),
        points: { show: false },
        value: (_, __, ___, idx) => shown(idx, (day) => String(day.messages)),
      },
      {
        label: `Amount (${currency})`,
        stroke: warning,
        fill: warning,
        paths: bars(1),
        points: { show: false },
        scale: 'amount',
        value: (_, __, ___, idx) => shown(idx, (day) => day.amount.toFixed(2)),
      },
    ],
    axes: [
      {
        ...axis,
        // A label as wide as 'Nov 23, 2026' needs room.
        space: 110,
        values: (_, splits) =>
          splits.map((ts) =>
            formatDate(new Date(ts * 1000).toISOString().slice(0, 10)),
          ),
      },
      { ...axis, label: 'Messages' },
      {
        ...axis,
        scale: 'amount',
        side: 1,
        label: currency,
        grid: { show: false },
      },
    ],
  };
}

/**
 * Draws the chart of `usageChartOptions` into `target`. Colours come from tokens.css so the
 * admin accent and dark mode follow.
 */
export function drawUsageChart(
  target: HTMLElement,
  days: readonly UsageDay[],
  currency: string,
): { destroy: () => void; resize: (width: number) => void } {
  const colours = {
    accent: designToken('--color-accent', '#4338ca'),
    warning: designToken('--color-warning', '#a16207'),
    muted: designToken('--color-text-muted', '#555c69'),
    grid: designToken('--color-border', '#dfe2e7'),
  };
  const chart = new uPlot(
    usageChartOptions(days, currency, target.clientWidth, colours),
    usageChartData(days),
    target,
  );
  return {
    destroy: () => chart.destroy(),
    resize: (width) =>
      chart.setSize({ width: Math.max(280, width), height: 240 }),
  };
}
