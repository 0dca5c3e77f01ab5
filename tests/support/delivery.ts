import { expect } from 'vitest';
import type { Queryable } from '../../src/server/db/client.ts';
import { DELIVERY_QUEUE } from '../../src/server/delivery/queue.ts';
import { eventually } from './eventually.ts';
import type { HttpClient } from './http.ts';

const FINAL = ['DELIVERED', 'UNDELIVERED', 'EXPIRED', 'REJECTED', 'FAILED'];

/** Polls a message's detail until `done` holds (default: a final state); returns it. */
export function waitForMessage(
  http: HttpClient,
  clientId: string,
  messageId: string,
  done: (message: any) => boolean = (m) => FINAL.includes(m.state),
  timeout = 10_000,
): Promise<any> {
  return eventually(
    async () => {
      const answer = await http.get(
        `/api/clients/${clientId}/messages/${messageId}`,
      );
      if (answer.status !== 200) {
        throw new Error(`message detail answered ${answer.status}`);
      }
      return answer.body;
    },
    done,
    { what: `message ${messageId}`, timeout },
  );
}

export const isFinal = (state: string) => FINAL.includes(state);

/**
 * Waits until the delivery queue holds no job left to run (created, retrying or active): after
 * it, no duplicate job can still submit or refund anything.
 */
export async function queueDrained(db: Queryable, timeout = 10_000) {
  await expect
    .poll(
      async () =>
        (
          await db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pgboss.job
             WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
            [DELIVERY_QUEUE],
          )
        )[0]!.n,
      { timeout, message: 'jobs left in the delivery queue' },
    )
    .toBe(0);
}
