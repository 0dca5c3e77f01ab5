import { availableParallelism } from 'node:os';
import {
  createHash,
  randomBytes,
  scrypt,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';
import { Semaphore } from '../semaphore.ts';

/** scrypt (N=2^14, r=8, p=1): about 50 ms a hash here, run on libuv's thread pool. */
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

/**
 * At most this many KDF runs at once, one per core up to 4: scrypt runs on libuv's pool of 4
 * threads, which file access and compression share, and a burst of password checks must
 * leave them, and the cores, to other requests. The others wait their turn.
 */
const KDF_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism()));

const kdf = new Semaphore(KDF_CONCURRENCY);
const stats = { completed: 0, peak: 0 };

/** How much KDF work this process does: running, waiting, finished, most at once, the cap. */
export function kdfStats() {
  return {
    active: kdf.active,
    waiting: kdf.waiting,
    completed: stats.completed,
    peak: stats.peak,
    limit: kdf.limit,
  };
}

async function derive(
  password: string,
  salt: Buffer,
  options: ScryptOptions,
): Promise<Buffer> {
  const release = await kdf.acquire();
  stats.peak = Math.max(stats.peak, kdf.active);
  try {
    return await new Promise((resolve, reject) => {
      scrypt(password, salt, KEY_LENGTH, options, (error, key) =>
        error ? reject(error) : resolve(key),
      );
    });
  } finally {
    stats.completed += 1;
    release();
  }
}

/** `scrypt$N$r$p$salt$hash`, so the parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

export async function verifyPassword(
  password: string,
  stored: string,
): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to verify against when the account does not exist, so timing does not tell. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/**
 * Client secrets are 256 random bits, so a fast hash is enough to store them: there is
 * nothing to brute-force that a slow KDF would protect.
 */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
