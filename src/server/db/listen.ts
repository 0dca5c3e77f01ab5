import pg from 'pg';

export interface ListenOptions {
  /** Called with each notification's payload. */
  onNotify(payload: string): void;
  /**
   * Called each time LISTEN is in place, the first time and after every reconnect: whatever
   * was notified while the connection was down was missed.
   */
  onListening(): void;
  /** The connection dropped or could not be made: notifications are missed until `onListening`. */
  onDown(): void;
  /** The connection failed or dropped (it is retried). */
  onError(error: unknown): void;
  /** Backoff between reconnects: from `minDelayMs`, doubling up to `maxDelayMs`. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

export interface Listener {
  /** Resolves once LISTEN was first in place (tests and the start wait for it). */
  readonly listening: Promise<void>;
  /** Ends the connection and stops reconnecting. */
  close(): Promise<void>;
}

/**
 * LISTENs on `channel` over a dedicated connection (a pg Client, not one of the pool's: LISTEN
 * holds its session, and a pooled connection is handed to other queries). When the connection
 * drops (server restart, `pg_terminate_backend`, network) it reconnects with backoff, and calls
 * `onListening` again once LISTEN is back.
 */
export function listen(
  connectionString: string,
  channel: string,
  options: ListenOptions,
): Listener {
  const minDelay = options.minDelayMs ?? 100;
  const maxDelay = options.maxDelayMs ?? 5_000;
  let closed = false;
  let client: pg.Client | undefined;
  let delay = minDelay;
  let timer: NodeJS.Timeout | undefined;
  let markListening: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (markListening = resolve));

  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, delay);
    delay = Math.min(delay * 2, maxDelay);
  };

  async function connect(): Promise<void> {
    const current = new pg.Client({ connectionString, keepAlive: true });
    client = current;
    let dropped = false;
    const drop = (error?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (closed) return;
      if (error !== undefined) options.onError(error);
      options.onDown();
      void current.end().catch(() => undefined);
      if (client === current) client = undefined;
      retry();
    };
    current.on('error', drop);
    current.on('end', () => drop());
    current.on('notification', (message) => {
      if (message.channel === channel) options.onNotify(message.payload ?? '');
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      drop(error);
      return;
    }
    if (dropped) return;
    if (closed) {
      await current.end().catch(() => undefined);
      return;
    }
    delay = minDelay;
    options.onListening();
    markListening();
  }

  void connect();
  return {
    listening,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
