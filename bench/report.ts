/**
 * The machine-readable figures of a benchmark: each bench prints one `BENCH-FIGURES {json}` line
 * that `npm run bench` (bench/run.ts) collects into its table and .tmp/bench/latest.json.
 */
export interface Figure {
  /** What was measured, e.g. `GET /api/health / bare Fastify`. */
  name: string;
  value: number;
  /** `req/s`, `×` (a ratio), `ms`, `KB`… */
  unit: string;
  /** The goal, when the figure has one: at least (`>=`) or at most (`<=`) `value`. */
  target?: { op: '>=' | '<='; value: number };
}

export interface FigureResult extends Figure {
  pass?: boolean;
}

export const FIGURES_PREFIX = 'BENCH-FIGURES ';

export function passes(figure: Figure): boolean | undefined {
  const { target } = figure;
  if (!target) return undefined;
  return target.op === '>='
    ? figure.value >= target.value
    : figure.value <= target.value;
}

/** Prints the figures as one line for the runner; returns whether every target was met. */
export function reportFigures(bench: string, figures: Figure[]): boolean {
  const results: FigureResult[] = figures.map((figure) => ({
    ...figure,
    pass: passes(figure),
  }));
  console.log(
    `${FIGURES_PREFIX}${JSON.stringify({ bench, figures: results })}`,
  );
  return results.every((figure) => figure.pass !== false);
}

/** The figures a bench printed in its output (the last BENCH-FIGURES line), if any. */
export function parseFigures(
  output: string,
): { bench: string; figures: FigureResult[] } | undefined {
  const line = output
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(FIGURES_PREFIX));
  if (!line) return undefined;
  return JSON.parse(line.slice(FIGURES_PREFIX.length)) as {
    bench: string;
    figures: FigureResult[];
  };
}

/** The median of some runs' figures. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[mid]!
    : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
