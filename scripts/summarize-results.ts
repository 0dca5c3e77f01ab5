/**
 * Sums the JSON reports of Vitest and Playwright into one closing line, `N passed, M failed`.
 *
 *   node scripts/summarize-results.ts STEP:EXIT_CODE:report.json,report.json …
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
    assertionResults?: { status: string }[];
  }[];
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number };
  errors?: unknown[];
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
function tallyFile(path: string): Tally {
  if (!existsSync(path)) {
    console.log(`summary: ${path} missing (that runner did not run)`);
    return { passed: 0, failed: 0 };
  }
  try {
    const tally = tallyReport(JSON.parse(readFileSync(path, 'utf8')));
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
  for (const arg of args) {
    const step = /^([^:]+):(\d+):(.*)$/.exec(arg);
    if (!step)
      throw new Error(`bad argument ${arg}: expected name:exit-code:reports`);
    const [, name, code, reports = ''] = step;
    const tally = { passed: 0, failed: 0 };
    for (const path of reports.split(',').filter(Boolean)) {
      const one = tallyFile(path);
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
  console.log(`${total.passed} passed, ${total.failed} failed`);
  return total.failed > 0 ? 1 : 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
