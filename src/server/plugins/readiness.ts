/**
 * Readiness (GET /api/ready, CONTRACT.md "Operating a fleet"): whether a load balancer should send
 * this node traffic. Not ready while draining (from SIGTERM on) or while the database does not
 * answer a `SELECT 1` within a short deadline; liveness (/api/health) is unaffected by either.
 */
export type ReadinessStatus = 'ready' | 'draining' | 'database unavailable';

/** A database answer slower than this counts as no answer: a probe must not hang. */
export const READINESS_DB_TIMEOUT_MS = 2_000;

export class Readiness {
  #draining = false;
  readonly #ping: () => Promise<unknown>;
  readonly #timeoutMs: number;

  constructor(
    ping: () => Promise<unknown>,
    timeoutMs = READINESS_DB_TIMEOUT_MS,
  ) {
    this.#ping = ping;
    this.#timeoutMs = timeoutMs;
  }

  /** From now on the node answers 503 "draining" (it never becomes ready again). */
  drain(): void {
    this.#draining = true;
  }

  get draining(): boolean {
    return this.#draining;
  }

  async status(): Promise<ReadinessStatus> {
    if (this.#draining) return 'draining';
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), this.#timeoutMs);
    });
    try {
      await Promise.race([this.#ping(), late]);
      return this.#draining ? 'draining' : 'ready';
    } catch {
      return this.#draining ? 'draining' : 'database unavailable';
    } finally {
      clearTimeout(timer);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's readiness: main.ts drains it on SIGTERM, GET /api/ready reads it. */
    readiness: Readiness;
  }
}
