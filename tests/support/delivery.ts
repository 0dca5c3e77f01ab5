import type { HttpClient } from './http.ts';

const FINAL = ['DELIVERED', 'UNDELIVERED', 'EXPIRED', 'REJECTED', 'FAILED'];

/** Polls a message's detail until `done` holds (default: a final state); returns it. */
export async function waitForMessage(
  http: HttpClient,
  clientId: string,
  messageId: string,
  done: (message: any) => boolean = (m) => FINAL.includes(m.state),
  timeoutMs = 10_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await http.get(
      `/api/clients/${clientId}/messages/${messageId}`,
    );
    if (answer.status !== 200) {
      throw new Error(`message detail answered ${answer.status}`);
    }
    if (done(answer.body)) return answer.body;
    if (Date.now() > deadline) {
      throw new Error(
        `message ${messageId} still ${answer.body.state} after ${timeoutMs} ms: ${JSON.stringify(answer.body.attempts)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const isFinal = (state: string) => FINAL.includes(state);
