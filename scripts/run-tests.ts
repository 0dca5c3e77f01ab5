/**
 * `npm test`: the type checks, lint, unit and API tests and the e2e tests, as a small plan of
 * steps rather than one `&&` chain, so that what needs little CPU or waits on timers overlaps:
 * the type checks and lint run beside the unit tests (their outputs are held and printed when
 * each ends), then the API tests and the e2e tests side by side. Every step runs even when
 * an earlier one failed (one red run shows everything); the exit code is the first non-zero one.
 *
 * Each step's wall and CPU time (its processes' user + system time, as the shell's `times`
 * reports them; a PostgreSQL started in the background is not counted) is printed at the end and
 * appended to .tmp/reports/phases.jsonl, which scripts/summarize-results.ts reads for its table.
 *
 *   node scripts/run-tests.ts [step …]    (default: every step)
 */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface Phase {
  phase: string;
  seconds: number;
  /** User + system CPU seconds of the step's processes. */
  cpu?: number;
  status: number;
}

interface Step {
  name: string;
  command: string;
  /** Steps that must end before this one starts. */
  after: string[];
  /** Output held and printed in one piece when it ends (it runs beside another step). */
  quiet?: boolean;
}

const STEPS: Step[] = [
  { name: 'typecheck', command: 'npm run typecheck', after: [], quiet: true },
  { name: 'lint', command: 'npm run lint', after: [], quiet: true },
  { name: 'unit', command: 'npm run test:unit', after: [] },
  // The API tests mostly wait (on PostgreSQL, timers, spawned servers: 354 CPU seconds in 448
  // s of wall time, under one core, in a CI run on two cores): after the unit tests, which are
  // CPU alone, with the e2e tests beside them (their own server and Chromium, 140 CPU seconds).
  { name: 'api', command: 'npm run test:api', after: ['unit'] },
  // Its output is held (as the type checks' beside the unit tests): the API tests' stream stays
  // readable; the e2e report is in test-results/ either way.
  { name: 'e2e', command: 'npm run test:e2e', after: ['unit'], quiet: true },
];

export const PHASES_FILE = '.tmp/reports/phases.jsonl';

/** Children's user and system seconds from the second line of bash's `times`. */
export function parseTimes(text: string): number | undefined {
  const line = text.trim().split('\n')[1];
  if (!line) return undefined;
  let total = 0;
  for (const [, min, sec] of line.matchAll(/(\d+)m([\d.]+)s/g)) {
    total += Number(min) * 60 + Number(sec);
  }
  return total;
}

function runStep(step: Step, scratch: string): Promise<Phase> {
  const started = performance.now();
  const timesFile = join(scratch, `${step.name}.times`);
  // `times` in the shell that waited for the step: its children's CPU, grandchildren included.
  const script = `${step.command}; status=$?; times > '${timesFile}'; exit $status`;
  const child = spawn('bash', ['-c', script], {
    stdio: step.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let held = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => (held += s));
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (held += s));
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      let cpu: number | undefined;
      try {
        cpu = parseTimes(readFileSync(timesFile, 'utf8'));
      } catch {
        // Killed before `times` ran.
      }
      const status = code ?? (signal ? 128 : 1);
      const phase: Phase = { phase: step.name, seconds, status };
      if (cpu !== undefined) phase.cpu = cpu;
      // Written as each step ends: a run stopped midway still shows the steps it finished.
      appendFileSync(PHASES_FILE, `${JSON.stringify(phase)}\n`);
      if (step.quiet) {
        process.stdout.write(
          `\n--- ${step.name} (${step.command}): exit ${status}, ${seconds.toFixed(1)} s\n${held}`,
        );
      }
      resolve(phase);
    });
  });
}

async function main(only: string[]): Promise<number> {
  const steps = only.length
    ? STEPS.filter((s) => only.includes(s.name)).map((s) => ({
        ...s,
        after: s.after.filter((a) => only.includes(a)),
      }))
    : STEPS;
  const unknown = only.filter((name) => !STEPS.some((s) => s.name === name));
  if (unknown.length) {
    console.error(
      `unknown step ${unknown.join(', ')}; steps: ${STEPS.map((s) => s.name).join(', ')}`,
    );
    return 2;
  }
  mkdirSync(dirname(PHASES_FILE), { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'run-tests-'));
  const done = new Map<string, Promise<Phase>>();
  const start = (step: Step): Promise<Phase> => {
    let running = done.get(step.name);
    if (!running) {
      running = Promise.all(
        step.after.map((name) => start(steps.find((s) => s.name === name)!)),
      ).then(() => runStep(step, scratch));
      done.set(step.name, running);
    }
    return running;
  };
  const phases = await Promise.all(steps.map(start));
  rmSync(scratch, { recursive: true, force: true });
  console.log('\nnpm test steps:');
  for (const p of phases) {
    console.log(
      `  ${p.phase.padEnd(10)} ${p.seconds.toFixed(1).padStart(7)} s wall` +
        `${p.cpu === undefined ? '' : `, ${p.cpu.toFixed(1).padStart(7)} s CPU`}, exit ${p.status}`,
    );
  }
  return phases.find((p) => p.status !== 0)?.status ?? 0;
}

if (import.meta.main) process.exit(await main(process.argv.slice(2)));
