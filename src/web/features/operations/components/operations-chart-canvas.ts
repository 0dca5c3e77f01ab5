import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { designToken } from '../../../lib/design-token';
import type { OperationsMethod } from '../../../../shared/schemas/operations';

/** uPlot's columns: the minutes (seconds since the epoch), then each method's messages. */
export function operationsChartData(
  since: string,
  methods: readonly OperationsMethod[],
): uPlot.AlignedData {
  const start = Date.parse(since) / 1000;
  const minutes = methods[0]?.perMinute.length ?? 0;
  return [
    Array.from({ length: minutes }, (_, i) => start + i * 60),
    ...methods.map((method) => method.perMinute),
  ];
}

/** Messages per minute of each method over the hour, one line each; colours from tokens.css. */
export function drawOperationsChart(
  target: HTMLElement,
  since: string,
  methods: readonly OperationsMethod[],
): {
  destroy: () => void;
  resize: (width: number) => void;
  update: (since: string, methods: readonly OperationsMethod[]) => void;
} {
  const colours = [
    designToken('--color-accent', '#4338ca'),
    designToken('--color-warning', '#a16207'),
    designToken('--color-success', '#15803d'),
  ];
  const muted = designToken('--color-text-muted', '#555c69');
  const grid = designToken('--color-border', '#dfe2e7');
  const axis = { stroke: muted, grid: { stroke: grid, width: 1 } };
  const chart = new uPlot(
    {
      width: Math.max(280, target.clientWidth),
      height: 220,
      scales: { y: { range: (_, __, max) => [0, Math.max(1, max)] } },
      series: [
        {},
        ...methods.map((method, index) => ({
          label: method.method,
          stroke: colours[index % colours.length],
          width: 2,
          points: { show: false },
        })),
      ],
      axes: [axis, { ...axis, label: 'Messages a minute' }],
    },
    operationsChartData(since, methods),
    target,
  );
  return {
    destroy: () => chart.destroy(),
    resize: (width) =>
      chart.setSize({ width: Math.max(280, width), height: 220 }),
    update: (nextSince, next) =>
      chart.setData(operationsChartData(nextSince, next)),
  };
}
