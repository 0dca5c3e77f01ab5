/**
 * Sums the JSON reports of Vitest and Playwright into one closing line, `N passed, M failed`,
 * after a table of where the time went: each phase's wall and CPU seconds (`--phases FILE`, the
 * JSON lines scripts/run-tests.ts and .ci/run append) and the slowest test files of the reports.
 *
 *   node scripts/summarize-results.ts [--phases FILE] STEP:EXIT_CODE:report.json,report.json …
 *
 * A step that exited non-zero without any failing test in its reports (typecheck, lint, a
 * build, a runner that crashed) counts as one failure, so a red run never ends "0 failed".
 * Exits 1 when anything failed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface Tally {
  passed: number;
  failed: number;
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults?: {
    name: string;
    status: string;
    message?: string;
    startTime?: number;
    endTime?: number;
    assertionResults?: { status: string }[];
  }[];
}

interface PlaywrightSuite {
  file?: string;
  specs?: { tests?: { results?: { duration?: number }[] }[] }[];
  suites?: PlaywrightSuite[];
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number };
  errors?: unknown[];
  suites?: PlaywrightSuite[];
}

/** One test file's time: its wall time (Vitest), or its tests' summed durations (Playwright). */
export interface FileTime {
  file: string;
  seconds: number;
}

/** The files of a report with their times; a file run twice (two projects) appears twice. */
export function fileTimes(json: unknown, root = process.cwd()): FileTime[] {
  const relative = (path: string) =>
    path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
  if (typeof json !== 'object' || json === null) return [];
  if ('numPassedTests' in json) {
    return ((json as VitestReport).testResults ?? [])
      .filter((f) => f.startTime !== undefined && f.endTime !== undefined)
      .map((f) => ({
        file: relative(f.name),
        seconds: (f.endTime! - f.startTime!) / 1000,
      }));
  }
  if ('suites' in json) {
    const sums = new Map<string, number>();
    const walk = (suite: PlaywrightSuite, file: string) => {
      const here = suite.file ?? file;
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          for (const result of test.results ?? []) {
            sums.set(here, (sums.get(here) ?? 0) + (result.duration ?? 0));
          }
        }
      }
      for (const inner of suite.suites ?? []) walk(inner, here);
    };
    for (const suite of (json as PlaywrightReport).suites ?? [])
      walk(suite, '');
    return [...sums].map(([file, ms]) => ({
      file: `tests/e2e/${file} (e2e, summed)`,
      seconds: ms / 1000,
    }));
  }
  return [];
}

export interface PhaseLine {
  phase: string;
  seconds: number;
  cpu?: number;
  status: number;
}

/** The phase table: one line per phase, in the order they were recorded. */
export function phaseTable(phases: PhaseLine[]): string[] {
  const lines = ['phase            wall s    CPU s  exit'];
  for (const p of phases) {
    lines.push(
      `${p.phase.padEnd(14)} ${p.seconds.toFixed(1).padStart(8)} ${
        p.cpu === undefined ? '       -' : p.cpu.toFixed(1).padStart(8)
      }  ${p.status}`,
    );
  }
  return lines;
}

function readPhases(path: string): PhaseLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as PhaseLine);
}

function tallyVitest(report: VitestReport): Tally {
  // A file that fails to load has no failed assertion but a failed status: count it too.
  const brokenFiles = (report.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' &&
      !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
  ).length;
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + brokenFiles,
  };
}

function tallyPlaywright(report: PlaywrightReport): Tally {
  return {
    // A flaky test passed on retry; it is reported by Playwright's own output.
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected + (report.errors?.length ?? 0),
  };
}

export function tallyReport(json: unknown): Tally {
  if (typeof json === 'object' && json !== null) {
    if ('numPassedTests' in json) return tallyVitest(json as VitestReport);
    if ('stats' in json && 'suites' in json) {
      return tallyPlaywright(json as PlaywrightReport);
    }
  }
  throw new Error('not a Vitest or Playwright JSON report');
}

/** Reads one report file; a missing file counts nothing, an unreadable one counts one failure. */
function tallyFile(path: string, times: FileTime[]): Tally {
  if (!existsSync(path)) {
    console.log(`summary: ${path} missing (that runner did not run)`);
    return { passed: 0, failed: 0 };
  }
  try {
    const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
    times.push(...fileTimes(json));
    const tally = tallyReport(json);
    console.log(
      `summary: ${basename(path)}: ${tally.passed} passed, ${tally.failed} failed`,
    );
    return tally;
  } catch (error) {
    console.log(`summary: ${path} unreadable: ${(error as Error).message}`);
    return { passed: 0, failed: 1 };
  }
}

function main(args: string[]): number {
  const total: Tally = { passed: 0, failed: 0 };
  const times: FileTime[] = [];
  let phases: PhaseLine[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--phases') {
      phases = readPhases(args[++i] ?? '');
      continue;
    }
    const step = /^([^:]+):(\d+):(.*)$/.exec(arg);
    if (!step)
      throw new Error(`bad argument ${arg}: expected name:exit-code:reports`);
    const [, name, code, reports = ''] = step;
    const tally = { passed: 0, failed: 0 };
    for (const path of reports.split(',').filter(Boolean)) {
      const one = tallyFile(path, times);
      tally.passed += one.passed;
      tally.failed += one.failed;
    }
    if (code !== '0' && tally.failed === 0) {
      console.log(
        `summary: step ${name} exited ${code} without a failing test: counted as 1 failed`,
      );
      tally.failed = 1;
    }
    total.passed += tally.passed;
    total.failed += tally.failed;
  }
  if (phases.length) {
    console.log('\nWhere the time went:');
    for (const line of phaseTable(phases)) console.log(`  ${line}`);
  }
  if (times.length) {
    console.log('\nSlowest test files (s):');
    for (const t of times.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
      console.log(`  ${t.seconds.toFixed(1).padStart(7)}  ${t.file}`);
    }
  }
  console.log(`${total.passed} passed, ${total.failed} failed`);
  return total.failed > 0 ? 1 : 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
