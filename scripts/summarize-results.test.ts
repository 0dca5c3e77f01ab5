import { describe, expect, it } from 'vitest';
import { parseTimes } from './run-tests.ts';
import { fileTimes, phaseTable, tallyReport } from './summarize-results.ts';

describe('summarize-results', () => {
  it('gives each Vitest file its wall time, relative to the checkout, a file of two passes twice', () => {
    const report = {
      numPassedTests: 3,
      numFailedTests: 0,
      testResults: [
        {
          name: '/ci/tests/api/a.test.ts',
          status: 'passed',
          startTime: 1_000,
          endTime: 4_500,
        },
        {
          name: '/ci/tests/api/a.test.ts',
          status: 'passed',
          startTime: 2_000,
          endTime: 3_000,
        },
        { name: '/elsewhere/b.test.ts', status: 'passed' },
      ],
    };
    expect(fileTimes(report, '/ci')).toEqual([
      { file: 'tests/api/a.test.ts', seconds: 3.5 },
      { file: 'tests/api/a.test.ts', seconds: 1 },
    ]);
    expect(tallyReport(report)).toEqual({ passed: 3, failed: 0 });
  });

  it("sums a Playwright file's test durations, nested suites included", () => {
    const report = {
      stats: { expected: 2, unexpected: 0, flaky: 0 },
      suites: [
        {
          file: 'login.spec.ts',
          specs: [{ tests: [{ results: [{ duration: 1_500 }] }] }],
          suites: [
            {
              specs: [
                {
                  tests: [{ results: [{ duration: 500 }, { duration: 250 }] }],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(fileTimes(report)).toEqual([
      { file: 'tests/e2e/login.spec.ts (e2e, summed)', seconds: 2.25 },
    ]);
  });

  it('prints one line a phase, a dash where no CPU time was measured', () => {
    expect(
      phaseTable([
        { phase: 'npm-ci', seconds: 21.04, cpu: 30.5, status: 0 },
        { phase: 'api', seconds: 300, status: 1 },
      ]),
    ).toEqual([
      'phase            wall s    CPU s  exit',
      'npm-ci             21.0     30.5  0',
      'api               300.0        -  1',
    ]);
  });

  it("reads the children's CPU seconds from bash's `times`", () => {
    expect(parseTimes('0m0.010s 0m0.002s\n1m2.500s 0m3.250s\n')).toBe(65.75);
    expect(parseTimes('')).toBeUndefined();
  });
});
