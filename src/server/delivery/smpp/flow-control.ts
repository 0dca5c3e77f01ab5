/**
 * The SMPP bind's flow control: a window of outstanding submit_sm (SMPP_WINDOW) and a token
 * bucket for SMPP_MAX_TPS, both cut on throttling and regrown on success. Pure: its clock and
 * timer are passed in (the connector passes performance.now and setTimeout), so it is tested
 * without real time.
 */

export interface FlowClock {
  /** Milliseconds, monotonic. */
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const realClock: FlowClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface FlowControlOptions {
  /** submit_sm outstanding at once (integer ≥ 1). */
  window: number;
  /** submit_sm per second, or null: no cap but the window. */
  maxTps: number | null;
  /** Pause after a throttling answer. */
  throttlePauseMs: number;
  clock: FlowClock;
  /** Called when what held submits back (the pause, an empty bucket) has passed. */
  ready(): void;
}

export class FlowControl {
  readonly #window0: number;
  readonly #maxTps: number | null;
  readonly #throttlePauseMs: number;
  readonly #clock: FlowClock;
  readonly #ready: () => void;

  #window: number;
  #rate: number | null;
  #tokens: number;
  #refilledAt: number;
  #pausedUntil = 0;
  #successesSinceGrowth = 0;
  #timer: unknown = null;

  constructor(options: FlowControlOptions) {
    this.#window0 = options.window;
    this.#maxTps = options.maxTps;
    this.#throttlePauseMs = options.throttlePauseMs;
    this.#clock = options.clock;
    this.#ready = options.ready;
    this.#window = options.window;
    this.#rate = options.maxTps;
    this.#tokens = this.#bucketSize();
    this.#refilledAt = this.#clock.now();
  }

  /** The window now (SMPP_WINDOW, or less after throttling). */
  get window(): number {
    return this.#window;
  }

  /** The submits-per-second cap now (null: none). */
  get rate(): number | null {
    return this.#rate;
  }

  /** Paused after throttling: true, and `ready` is called when the pause is over. */
  paused(): boolean {
    const now = this.#clock.now();
    if (now < this.#pausedUntil) {
      this.#schedule(this.#pausedUntil - now);
      return true;
    }
    return false;
  }

  /** Whether the window has room beside `outstanding` submits. */
  hasRoom(outstanding: number): boolean {
    return outstanding < this.#window;
  }

  /**
   * Takes one submit's token: false when the bucket is empty, and `ready` is called when it
   * holds one again. Always true without a cap.
   */
  take(): boolean {
    if (this.#rate === null) return true;
    const at = this.#clock.now();
    this.#tokens = Math.min(
      this.#bucketSize(),
      this.#tokens + ((at - this.#refilledAt) / 1000) * this.#rate,
    );
    this.#refilledAt = at;
    if (this.#tokens < 1) {
      this.#schedule(((1 - this.#tokens) / this.#rate) * 1000);
      return false;
    }
    this.#tokens -= 1;
    return true;
  }

  /**
   * The SMSC asked us to slow down: pause, and halve window and rate, once per pause (the PDUs
   * already out answer within it). Whether this answer cut them.
   */
  throttled(): boolean {
    const now = this.#clock.now();
    if (now < this.#pausedUntil) return false;
    this.#pausedUntil = now + this.#throttlePauseMs;
    this.#window = Math.max(1, Math.floor(this.#window / 2));
    if (this.#rate !== null) {
      this.#rate = Math.max(1, this.#rate / 2);
      this.#tokens = Math.min(this.#tokens, this.#bucketSize());
    }
    this.#successesSinceGrowth = 0;
    return true;
  }

  /** A submit accepted: after a window's worth, one more slot and a tenth more rate. */
  accepted(): void {
    const window = this.#window0;
    const maxTps = this.#maxTps;
    if (this.#window >= window && this.#rate === maxTps) return;
    this.#successesSinceGrowth += 1;
    if (this.#successesSinceGrowth < this.#window) return;
    this.#successesSinceGrowth = 0;
    this.#window = Math.min(window, this.#window + 1);
    if (this.#rate !== null && maxTps !== null) {
      this.#rate = Math.min(maxTps, this.#rate + maxTps / 10);
    }
  }

  /** No more `ready` calls. */
  close(): void {
    if (this.#timer !== null) this.#clock.clearTimer(this.#timer);
  }

  #bucketSize(): number {
    // Up to 50 ms worth of submits in one burst, so the cap holds over any short interval.
    return this.#rate === null ? 1 : Math.max(1, this.#rate / 20);
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== null) return;
    this.#timer = this.#clock.setTimer(
      () => {
        this.#timer = null;
        this.#ready();
      },
      Math.max(1, Math.ceil(delayMs)),
    );
  }
}
