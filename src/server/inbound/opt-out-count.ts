/**
 * Numbers opted out on this node's request path (PUT …/optouts/{number}), for
 * sms_optouts_total{source}; the keyword ones are counted by the auto-reply worker that answers
 * the STOP (src/server/inbound/keyword-replies.ts, through the delivery observer).
 */
export class OptOutCount {
  #listener: ((source: 'keyword' | 'api', count: number) => void) | null = null;

  /** One listener (the node's metrics); a later call replaces it. */
  listen(
    listener: ((source: 'keyword' | 'api', count: number) => void) | null,
  ): void {
    this.#listener = listener;
  }

  add(source: 'keyword' | 'api', count: number): void {
    this.#listener?.(source, count);
  }
}
