/**
 * `node bench/profile-top.ts <file.cpuprofile> [count] [from-second]`: the functions with the most
 * self time in a V8 CPU profile (as written by `node --cpu-prof`, e.g. `BENCH_PROFILE=1 npm run
 * bench:api`), then the same samples grouped by package or source folder. Samples before
 * `from-second` (the server's start, say) are left out.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

const [file, count = '30', from = '0'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-top.ts <file.cpuprofile> [count]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
/** Samples per node, from `from` seconds on. */
const hitCount = new Map<number, number>();
let elapsedUs = 0;
let total = 0;
profile.samples.forEach((id, i) => {
  elapsedUs += profile.timeDeltas[i] ?? 0;
  if (elapsedUs < Number(from) * 1e6) return;
  hitCount.set(id, (hitCount.get(id) ?? 0) + 1);
  total += 1;
});

function where(url: string): string {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return url;
  const source = /\/(src\/[^/]+\/[^/]+|bench|tests\/[^/]+)\//.exec(url);
  return source?.[1] ?? (url || '(native)');
}

function top(key: (node: ProfileNode) => string, title: string, n: number) {
  const hits = new Map<string, number>();
  for (const node of profile.nodes) {
    const k = key(node);
    hits.set(k, (hits.get(k) ?? 0) + (hitCount.get(node.id) ?? 0));
  }
  console.log(`\n${title} (${total} samples)`);
  for (const [k, h] of [...hits].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((100 * h) / total).toFixed(1).padStart(5)} %  ${k}`);
  }
}

top(
  ({ callFrame: f }) =>
    `${f.functionName || '(anonymous)'}  ${f.url.replace(/^.*node_modules\//, '')}:${f.lineNumber + 1}`,
  'self time by function',
  Number(count),
);
top(({ callFrame: f }) => where(f.url), 'self time by package', 20);
