/**
 * `npm run bench`: runs the benchmarks one after the other (all of them, or those named:
 * `node bench/run.ts api search`), each in its own process with its output shown as it runs, then
 * prints one table of every figure with its target and pass/fail, and writes the same as JSON to
 * .tmp/bench/latest.json (with the machine it ran on) for comparing runs. A bench reports its
 * figures with one `BENCH-FIGURES` line (bench/report.ts); one that prints none is listed by its
 * exit status alone. Exits 1 when a target is missed or a bench fails.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { parseFigures, type FigureResult } from './report.ts';
import { ROOT } from './spawn.ts';

const BENCHES = [
  'api',
  'sms',
  'web',
  'delivery',
  'fairness',
  'inbound',
  'batch',
  'search',
  'engine',
] as const;

interface BenchRun {
  bench: string;
  exitCode: number | null;
  seconds: number;
  figures: FigureResult[];
}

function runBench(name: string): Promise<BenchRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [resolve(ROOT, `bench/${name}.ts`)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    process.stdout.write(chunk);
  });
  return new Promise((done) =>
    child.once('close', (exitCode) =>
      done({
        bench: name,
        exitCode,
        seconds: Math.round((Date.now() - started) / 1000),
        figures: parseFigures(output)?.figures ?? [],
      }),
    ),
  );
}

function format(value: number, unit: string): string {
  const digits =
    unit === '×'
      ? 2
      : Number.isInteger(value) || Math.abs(value) >= 100
        ? 0
        : 1;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })}${unit ? ` ${unit}` : ''}`;
}

/** The table: one row per figure, and one per bench that printed none. */
export function table(runs: BenchRun[]): string {
  const rows: string[][] = [['bench', 'figure', 'value', 'target', 'result']];
  for (const run of runs) {
    const failed = run.exitCode !== 0;
    if (run.figures.length === 0) {
      rows.push([
        run.bench,
        '(exit status)',
        String(run.exitCode),
        '0',
        failed ? 'FAIL' : 'pass',
      ]);
    }
    for (const figure of run.figures) {
      rows.push([
        run.bench,
        figure.name,
        format(figure.value, figure.unit),
        figure.target
          ? `${figure.target.op === '>=' ? '≥' : '≤'} ${format(figure.target.value, figure.unit)}`
          : '',
        figure.pass === undefined ? '' : figure.pass ? 'pass' : 'FAIL',
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) =>
    Math.max(...rows.map((row) => row[i]!.length)),
  );
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    line(rows[0]!),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.slice(1).map(line),
  ].join('\n');
}

function machine() {
  const cores = cpus();
  return {
    cpu: `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown'}`,
    memoryGB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: loadavg().map((l) => Number(l.toFixed(2))),
  };
}

if (import.meta.main) {
  const asked = process.argv.slice(2);
  const unknown = asked.filter(
    (n) => !(BENCHES as readonly string[]).includes(n),
  );
  if (unknown.length > 0) {
    console.error(
      `unknown bench ${unknown.join(', ')}; known: ${BENCHES.join(', ')}`,
    );
    process.exit(2);
  }
  const names = asked.length > 0 ? asked : [...BENCHES];
  const before = machine();
  const runs: BenchRun[] = [];
  for (const name of names) {
    console.log(`\n=== bench:${name} ===`);
    runs.push(await runBench(name));
  }
  const summary = {
    date: new Date().toISOString(),
    machine: { ...before, loadAverageAfter: machine().loadAverage },
    runs,
  };
  const out = resolve(ROOT, '.tmp/bench/latest.json');
  mkdirSync(resolve(out, '..'), { recursive: true });
  writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `\nbench — ${summary.date}, ${before.cpu}, ${before.memoryGB} GB, Node ${before.node}, ` +
      `load ${before.loadAverage.join(' ')} before, ${summary.machine.loadAverageAfter.join(' ')} after`,
  );
  console.log(table(runs));
  console.log(`written to ${out}`);
  const failed = runs.some(
    (run) => run.exitCode !== 0 || run.figures.some((f) => f.pass === false),
  );
  process.exit(failed ? 1 : 0);
}
