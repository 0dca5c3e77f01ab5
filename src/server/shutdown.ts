/**
 * How main.ts and worker.ts stop: SIGTERM or SIGINT runs `close` once, then the process exits 0
 * (1 after an uncaught error, a failed close, or `timeoutMs` without closing).
 *
 * The same signal arriving again is ignored, not a reason to give up: systemd, container runtimes
 * and a terminal's Ctrl-C signal the whole process group, and `npm start` / `npm run worker`
 * forward the signal they got to the node process too, which therefore gets it twice
 * (close-with-grace, used before, exited 1 on that second signal and cut the requests in flight).
 * A person pressing Ctrl-C again a second later still forces the exit.
 */
export interface ShutdownLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ShutdownReason {
  signal?: NodeJS.Signals;
  err?: unknown;
}

const FORCE_AFTER_MS = 1_000;

export function closeOnSignals(
  options: { timeoutMs: number; log: ShutdownLog },
  close: (reason: ShutdownReason) => Promise<void>,
): void {
  const { log } = options;
  let startedAt: number | undefined;

  function run(reason: ShutdownReason): void {
    if (startedAt !== undefined) {
      if (reason.err) {
        log.error({ err: reason.err }, 'uncaught error while closing: exiting');
        process.exit(1);
      }
      if (
        reason.signal === 'SIGINT' &&
        Date.now() - startedAt > FORCE_AFTER_MS
      ) {
        log.error({ signal: reason.signal }, 'second SIGINT: exiting now');
        process.exit(1);
      }
      log.info({ signal: reason.signal }, 'already closing');
      return;
    }
    startedAt = Date.now();
    if (reason.err)
      log.error({ err: reason.err }, 'closing after an uncaught error');
    else log.info({ signal: reason.signal }, 'closing');
    setTimeout(() => {
      log.error(
        { timeoutMs: options.timeoutMs },
        'not closed within SHUTDOWN_TIMEOUT_SECONDS: exiting',
      );
      process.exit(1);
    }, options.timeoutMs).unref();
    close(reason).then(
      () => process.exit(reason.err ? 1 : 0),
      (err: unknown) => {
        log.error({ err }, 'closing failed');
        process.exit(1);
      },
    );
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => run({ signal }));
  }
  process.on('uncaughtException', (err) => run({ err }));
  process.on('unhandledRejection', (err) => run({ err }));
}
