/**
 * DNS for status-callback targets. Customers choose these names, so a name can be made to
 * resolve slowly on purpose. `dns.lookup` (getaddrinfo) runs on libuv's thread pool of 4
 * threads, shared with the file system, crypto and every other lookup of the process: four slow
 * names stalled other tenants' test events and a Vonage submit for a minute. So callbacks ask
 * DNS through c-ares (`dns.promises.Resolver`: sockets on the event loop, no thread), with a
 * deadline, and at most LOOKUPS_PER_CLIENT lookups of one client run at once.
 *
 * c-ares reads /etc/resolv.conf but not /etc/hosts: `localhost` (and `*.localhost`, RFC 6761)
 * is answered here as the loopback addresses, never asked of a server.
 */
import { Resolver } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Lookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface DnsOptions {
  /** DNS servers (`ip` or `ip:port`); default the system's (/etc/resolv.conf). */
  servers?: readonly string[] | undefined;
  /** No answer within this is a failure (code ETIMEOUT). */
  timeoutMs?: number | undefined;
}

export const DNS_TIMEOUT_MS = 5_000;
/** Lookups of one client running at once on this node; more wait for a turn. */
export const LOOKUPS_PER_CLIENT = 2;
/** Lookups of one client waiting for a turn; more are refused at once (code ELIMIT). */
export const LOOKUPS_WAITING_PER_CLIENT = 8;

const LOCALHOST: readonly ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

function dnsError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

/**
 * The A and AAAA addresses of `hostname` (IPv4 first), through c-ares, within the deadline.
 * Rejects with the resolver's code (ENOTFOUND, ENODATA, ETIMEOUT, ECONNREFUSED…).
 */
export async function resolveHost(
  hostname: string,
  { servers, timeoutMs = DNS_TIMEOUT_MS }: DnsOptions = {},
): Promise<readonly ResolvedAddress[]> {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return LOCALHOST;

  // One resolver per lookup, so that cancelling it at the deadline cancels this lookup only.
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers && servers.length > 0) resolver.setServers([...servers]);
  const timedOut = () =>
    dnsError('ETIMEOUT', `no DNS answer within ${timeoutMs / 1000} s`);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(timedOut());
    }, timeoutMs);
  });
  try {
    const [v4, v6] = await Promise.race([
      Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]),
      deadline,
    ]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value : []).map((address) => ({
        address,
        family: 4,
      })),
      ...(v6.status === 'fulfilled' ? v6.value : []).map((address) => ({
        address,
        family: 6,
      })),
    ];
    if (addresses.length > 0) return addresses;
    // Neither answered with an address: the more telling error (a name that has only AAAA
    // records answers ENODATA for A).
    const errors = [v4, v6].flatMap((r) =>
      r.status === 'rejected' ? [r.reason as Error & { code?: string }] : [],
    );
    const error =
      errors.find((e) => e.code !== 'ENODATA') ??
      errors[0] ??
      dnsError('ENODATA', `no address for ${name}`);
    // c-ares's own timer may beat ours by a hair: the same failure, told the same way.
    throw error.code === 'ETIMEOUT' ? timedOut() : error;
  } finally {
    clearTimeout(timer);
  }
}

/** At most `limit` tasks per key at once; up to `maxWaiting` more wait for a turn. */
export class KeyedLimiter {
  readonly #running = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();
  readonly limit: number;
  readonly maxWaiting: number;

  constructor(limit: number, maxWaiting: number) {
    this.limit = limit;
    this.maxWaiting = maxWaiting;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    await this.#acquire(key);
    try {
      return await task();
    } finally {
      this.#release(key);
    }
  }

  async #acquire(key: string): Promise<void> {
    const running = this.#running.get(key) ?? 0;
    if (running < this.limit) {
      this.#running.set(key, running + 1);
      return;
    }
    const queue = this.#waiting.get(key) ?? [];
    if (queue.length >= this.maxWaiting) {
      throw dnsError(
        'ELIMIT',
        `too many DNS lookups at once for one client (${this.limit} running, ${this.maxWaiting} waiting)`,
      );
    }
    this.#waiting.set(key, queue);
    // The slot is handed over by #release: the running count stays as it is.
    await new Promise<void>((resolve) => queue.push(resolve));
  }

  #release(key: string): void {
    const queue = this.#waiting.get(key);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.#waiting.delete(key);
    if (next) {
      next();
      return;
    }
    const running = (this.#running.get(key) ?? 1) - 1;
    if (running > 0) this.#running.set(key, running);
    else this.#running.delete(key);
  }
}

/** This process's lookups of callback targets, per client. */
const perClient = new KeyedLimiter(
  LOOKUPS_PER_CLIENT,
  LOOKUPS_WAITING_PER_CLIENT,
);

/** resolveHost as a Lookup; with `clientId`, in turn with that client's other lookups. */
export function callbackLookup(
  options: DnsOptions & { clientId?: string | undefined } = {},
): Lookup {
  const { clientId, ...dns } = options;
  return (hostname) =>
    clientId === undefined
      ? resolveHost(hostname, dns)
      : perClient.run(clientId, () => resolveHost(hostname, dns));
}
