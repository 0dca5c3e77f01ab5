import { flushCompileCache } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's own `gc()` (with --expose-gc): `last-resort` is the collection it runs before an OOM. */
type Gc = (options: { type: 'major'; flavor: 'last-resort' }) => void;

/**
 * With NODE_COMPILE_CACHE (npm start sets it), writes the modules' type-stripped and compiled
 * forms to disk now, once started, not at exit, which a killed process never reaches: a start
 * that finds them strips no types and never loads Node's type stripper (amaro, WebAssembly:
 * 15-17 MB resident; issue 34). Without it, nothing.
 */
export function saveCompileCache(): void {
  flushCompileCache();
}

/**
 * Gives the start's garbage back to the system, once the server listens (issue 34: an idle node
 * within 200 MB resident with its PostgreSQL). Starting (migrations, pg-boss, every route's
 * schemas compiled) grows V8's young generation to its largest, some 30 MB resident, and nothing
 * shrinks it later: V8's memory reducer never runs on this server (no further full collection
 * comes while it idles). One memory-reducing collection, the last-resort one, shrinks it back to
 * 1 MB and compacts the rest, in some 50 ms of CPU once.
 * The trade: load that comes next finds a small young generation, which V8 grows again only as
 * survivors demand: bench:sms right after a start measured 8-22 % more node CPU per send.
 * Node offers that collection only through `gc`, exposed for this one call: the flag holds for
 * contexts made later, so a new context hands it over, and is cleared again.
 */
export function releaseStartupMemory(): void {
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as Gc)({ type: 'major', flavor: 'last-resort' });
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
