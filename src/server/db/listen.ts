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
}

export interface Listener {
  /** Resolves once LISTEN was first in place (tests and the start wait for it). */
  readonly listening: Promise<void>;
  /**
   * Runs a query over the LISTEN connection while it is up; undefined while it is down (the
   * caller uses its pool then). A look every few seconds on an idle node would otherwise keep a
   * pooled connection, a backend of its own, alive for good; this one is there anyway.
   */
  query<T>(text: string, params?: unknown[]): Promise<T[]> | undefined;
  /** Stops listening; the connection ends with the last listener on it. */
  close(): Promise<void>;
}

/** Shown in pg_stat_activity (application_name): the connection that LISTENs. */
export const LISTEN_APPLICATION = 'console-listen';
/** Backoff between reconnects: from this, doubling up to MAX_DELAY_MS. */
const MIN_DELAY_MS = 100;
const MAX_DELAY_MS = 5_000;

interface Subscriber extends ListenOptions {
  channel: string;
  /** Resolves `listening`: once, the first time its LISTEN is in place. */
  markListening(): void;
}

/** The LISTEN connection of one connection string and the listeners sharing it. */
interface Shared {
  subscribers: Set<Subscriber>;
  /** The connection, once LISTEN is in place on it; undefined while (re)connecting. */
  client: pg.Client | undefined;
  /** The connection being made or up, to end on the last close. */
  current: pg.Client | undefined;
  timer: NodeJS.Timeout | undefined;
  delay: number;
}

/** Every listener of this process on one database shares one connection (keyed by its URL). */
const connections = new Map<string, Shared>();

const quote = (channel: string) => `LISTEN ${pg.escapeIdentifier(channel)}`;

/**
 * LISTENs on `channel` over a dedicated connection (a pg Client, not one of the pool's: LISTEN
 * holds its session, and a pooled connection is handed to other queries). The listeners of one
 * process on one database (the credential revocations, the queue alarm) share that connection:
 * each idle connection is a PostgreSQL backend of some 13 MB resident (issue 34). When it drops
 * (server restart, `pg_terminate_backend`, network) it reconnects with backoff, and calls each
 * listener's `onListening` again once LISTEN is back.
 */
export function listen(
  connectionString: string,
  channel: string,
  options: ListenOptions,
): Listener {
  let markListening: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (markListening = resolve));
  const subscriber: Subscriber = { ...options, channel, markListening };
  let shared = connections.get(connectionString);
  if (!shared) {
    shared = {
      subscribers: new Set([subscriber]),
      client: undefined,
      current: undefined,
      timer: undefined,
      delay: MIN_DELAY_MS,
    };
    connections.set(connectionString, shared);
    void connect(connectionString, shared);
  } else {
    shared.subscribers.add(subscriber);
    // Up already: LISTEN on this channel too. Otherwise the (re)connect LISTENs for it.
    if (shared.client) join(shared, shared.client, subscriber);
  }
  const owner = shared;
  return {
    listening,
    query<T>(text: string, params?: unknown[]) {
      if (!owner.subscribers.has(subscriber)) return undefined; // closed
      return owner.client
        ?.query(text, params)
        .then((result) => result.rows as T[]);
    },
    async close() {
      if (!owner.subscribers.delete(subscriber)) return;
      if (owner.subscribers.size > 0) {
        const stillHeard = [...owner.subscribers].some(
          (other) => other.channel === channel,
        );
        if (!stillHeard) {
          await owner.client
            ?.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`)
            .catch(() => undefined);
        }
        return;
      }
      if (connections.get(connectionString) === owner) {
        connections.delete(connectionString);
      }
      if (owner.timer) clearTimeout(owner.timer);
      owner.timer = undefined;
      const current = owner.current;
      owner.client = owner.current = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

/** Connects `shared` and LISTENs on every channel of its listeners; retried when it drops. */
async function connect(connectionString: string, shared: Shared) {
  const closed = () => shared.subscribers.size === 0;
  const retry = () => {
    if (closed() || shared.timer) return;
    shared.timer = setTimeout(() => {
      shared.timer = undefined;
      void connect(connectionString, shared);
    }, shared.delay);
    shared.delay = Math.min(shared.delay * 2, MAX_DELAY_MS);
  };
  const current = new pg.Client({
    connectionString,
    keepAlive: true,
    application_name: LISTEN_APPLICATION,
  });
  shared.current = current;
  let dropped = false;
  const drop = (error?: unknown) => {
    if (dropped) return;
    dropped = true;
    if (shared.current !== current) return; // closed meanwhile
    shared.client = shared.current = undefined;
    void current.end().catch(() => undefined);
    for (const subscriber of shared.subscribers) {
      if (error !== undefined) subscriber.onError(error);
      subscriber.onDown();
    }
    retry();
  };
  current.on('error', drop);
  current.on('end', () => drop());
  current.on('notification', (message) => {
    for (const subscriber of shared.subscribers) {
      if (message.channel === subscriber.channel) {
        subscriber.onNotify(message.payload ?? '');
      }
    }
  });
  try {
    await current.connect();
  } catch (error) {
    drop(error);
    return;
  }
  if (dropped || shared.current !== current) return;
  shared.client = current;
  shared.delay = MIN_DELAY_MS;
  for (const subscriber of shared.subscribers)
    join(shared, current, subscriber);
}

/**
 * LISTENs on `subscriber`'s channel over `client` (again, when another listener shares the
 * channel: PostgreSQL takes it as a no-op), then tells it. A failure is the connection's: its
 * drop tells every listener, and the reconnect LISTENs again.
 */
function join(shared: Shared, client: pg.Client, subscriber: Subscriber) {
  client.query(quote(subscriber.channel)).then(
    () => {
      if (shared.client !== client || !shared.subscribers.has(subscriber)) {
        return;
      }
      subscriber.onListening();
      subscriber.markListening();
    },
    () => undefined,
  );
}
