import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What starts processes of its own: such a file takes tens of seconds at least. */
const SPAWNS =
  /\b(spawnServer|launchServer|spawnServerInOwnGroup|restartableServer|spawnFleet|throwawayPostgres|startSmscProcess)\(/;

/**
 * Vitest's own order runs projects one after the other (by name) and, without the timings of an
 * earlier run (a fresh CI clone has none), larger files first. The two API passes share one pool,
 * so the PGlite pass's long files (a crash test of two minutes) started last and ran alone at the
 * end. This order puts every file of a group (sequence.groupOrder) in one list, longest first:
 * by the last run's time when known, else files that start processes, then by size.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(
    files: TestSpecification[],
  ): Promise<TestSpecification[]> {
    const weight = new Map<TestSpecification, number>();
    for (const spec of files) {
      const last = this.ctx.cache.getTestSpecificationResult(spec);
      if (last) {
        weight.set(spec, last.duration);
        continue;
      }
      const text = readFileSync(spec.moduleId, 'utf8');
      // A rough guess in ms: 60 s for a file that spawns, then its size.
      weight.set(spec, (SPAWNS.test(text) ? 60_000 : 0) + text.length / 10);
    }
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder -
          b.project.config.sequence.groupOrder ||
        weight.get(b)! - weight.get(a)!,
    );
  }
}
