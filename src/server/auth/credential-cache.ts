import { hash, randomBytes } from 'node:crypto';

interface Entry<T> {
  value: T;
  subjects: string[];
  expiresAt: number;
}

/**
 * Verified credentials, so a KDF runs once per credential pair and TTL rather than on every
 * call. Keys are an HMAC of the pair under a per-process random key: the map never holds a
 * password, and a memory dump does not reveal one. Entries are dropped at once when their
 * subject (a user or a client) changes password, secret, roles or profile.
 */
export class CredentialCache<T> {
  /** HMAC-SHA256 pads of a per-process random key (RFC 2104), prepared once. */
  private readonly innerPad: Buffer;
  private readonly outerPad: Buffer;
  private readonly entries = new Map<string, Entry<T>>();
  private readonly bySubject = new Map<string, Set<string>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(ttlMs = 60_000, maxEntries = 10_000) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    const key = randomBytes(32);
    this.innerPad = Buffer.alloc(64, 0x36);
    this.outerPad = Buffer.alloc(64, 0x5c);
    for (let i = 0; i < key.length; i++) {
      this.innerPad[i] = (this.innerPad[i] ?? 0) ^ (key[i] ?? 0);
      this.outerPad[i] = (this.outerPad[i] ?? 0) ^ (key[i] ?? 0);
    }
  }

  /**
   * HMAC-SHA256 of `username \0 password`, computed from two one-shot hashes: the same value as
   * createHmac, which costs about 30 µs a call on Node 24 (a fifth of an authenticated request).
   */
  keyOf(username: string, password: string): string {
    const inner = hash(
      'sha256',
      Buffer.concat([this.innerPad, Buffer.from(`${username}\0${password}`)]),
      'buffer',
    );
    return hash('sha256', Buffer.concat([this.outerPad, inner]), 'base64');
  }

  get(key: string, now = Date.now()): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, subjects: string[], now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    this.delete(key);
    this.entries.set(key, { value, subjects, expiresAt: now + this.ttlMs });
    for (const subject of subjects) {
      let keys = this.bySubject.get(subject);
      if (!keys) this.bySubject.set(subject, (keys = new Set()));
      keys.add(key);
    }
  }

  /** Drops every cached credential of a user or client. */
  forget(subject: string): void {
    for (const key of this.bySubject.get(subject) ?? []) this.delete(key);
    this.bySubject.delete(subject);
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const subject of entry.subjects) {
      const keys = this.bySubject.get(subject);
      keys?.delete(key);
      if (keys?.size === 0) this.bySubject.delete(subject);
    }
  }
}
