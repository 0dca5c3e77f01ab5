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
