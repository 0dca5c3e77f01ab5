import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialCache } from './credential-cache.ts';

describe('CredentialCache.keyOf', () => {
  it('is a SHA-256 of the pair under a per-process key', () => {
    const cache = new CredentialCache<string>();
    const secret = (cache as unknown as { secret: string }).secret;
    expect(Buffer.from(secret, 'base64')).toHaveLength(32);
    const expected = createHash('sha256')
      .update(`${secret}16:ada@example.test\0password-123`)
      .digest('base64');
    expect(cache.keyOf('ada@example.test', 'password-123')).toBe(expected);
  });

  it('gives pairs that join into the same text different keys', () => {
    const cache = new CredentialCache<string>();
    // Joined with a separator alone, both would read `ada\0x\0y`.
    expect(cache.keyOf('ada\0x', 'y')).not.toBe(cache.keyOf('ada', 'x\0y'));
    expect(cache.keyOf('ada', '')).not.toBe(cache.keyOf('ad', 'a'));
  });

  it('differs between pairs and between processes (instances), never holding the password', () => {
    const one = new CredentialCache<string>();
    const two = new CredentialCache<string>();
    const key = one.keyOf('ada@example.test', 'password-123');
    expect(one.keyOf('ada@example.test', 'password-123')).toBe(key);
    expect(one.keyOf('ada@example.test', 'password-124')).not.toBe(key);
    expect(two.keyOf('ada@example.test', 'password-123')).not.toBe(key);
    expect(key).not.toContain('password');
  });
});

describe('CredentialCache against changes during a check', () => {
  const verified = (value: string) => ({ value, subjects: ['user-1'] });

  it('refuses to cache what a check read before its subject was forgotten', () => {
    const cache = new CredentialCache<string>();
    const ticket = cache.ticket();
    cache.forget('user-1'); // the password changed while the check ran
    expect(cache.set('k', verified('old'), ticket)).toBe(false);
    expect(cache.get('k')).toBeUndefined();
    // A check that starts after the change caches again.
    expect(cache.set('k', verified('new'), cache.ticket())).toBe(true);
    expect(cache.get('k')).toBe('new');
  });

  it('still caches when another subject was forgotten', () => {
    const cache = new CredentialCache<string>();
    const ticket = cache.ticket();
    cache.forget('user-2');
    expect(cache.set('k', verified('v'), ticket)).toBe(true);
  });

  it('ends an entry at its own expiry when sooner than the TTL (a grace period)', () => {
    const cache = new CredentialCache<string>(60_000);
    const now = Date.now();
    cache.set(
      'k',
      { ...verified('v'), expiresAt: now + 1000 },
      cache.ticket(now),
      now,
    );
    expect(cache.get('k', now + 999)).toBe('v');
    expect(cache.get('k', now + 1000)).toBeUndefined();
  });

  it('runs one check per key at a time, and none is shared across a forget', async () => {
    const cache = new CredentialCache<string>();
    let runs = 0;
    let finish: (v: string) => void = () => undefined;
    const check = () => {
      runs += 1;
      return new Promise<{ value: string; subjects: string[] }>((resolve) => {
        finish = (value) => resolve(verified(value));
      });
    };
    const first = cache.verifyOnce('k', check);
    const second = cache.verifyOnce('k', check);
    expect(runs).toBe(1);
    expect(cache.running('k')).toBe(first);
    cache.forget('user-1');
    expect(cache.running('k')).toBeUndefined();
    const firstFinish = finish;
    const third = cache.verifyOnce('k', check);
    expect(runs).toBe(2);
    firstFinish('old');
    expect(await first).toBe('old');
    expect(await second).toBe('old');
    expect(cache.get('k')).toBeUndefined(); // read before the forget: not cached
    finish('new');
    expect(await third).toBe('new');
    expect(cache.get('k')).toBe('new');
  });
});

describe('CredentialCache.forgetAll', () => {
  it('drops every entry and keeps checks already running from caching', () => {
    const cache = new CredentialCache<string>();
    cache.set('a', { value: 'a', subjects: ['user-1'] }, cache.ticket());
    cache.set('b', { value: 'b', subjects: ['client-1'] }, cache.ticket());
    const running = cache.ticket();
    cache.forgetAll();
    expect(cache.size).toBe(0);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.set('c', { value: 'c', subjects: ['user-9'] }, running)).toBe(
      false,
    );
    expect(
      cache.set('c', { value: 'c', subjects: ['user-9'] }, cache.ticket()),
    ).toBe(true);
  });
});

describe('CredentialCache.suspend', () => {
  it('serves and keeps nothing while suspended, and starts empty on resume', () => {
    const cache = new CredentialCache<string>();
    cache.set('a', { value: 'a', subjects: ['user-1'] }, cache.ticket());
    const running = cache.ticket();
    cache.suspend();
    expect(cache.get('a')).toBeUndefined();
    expect(
      cache.set('b', { value: 'b', subjects: ['user-2'] }, cache.ticket()),
    ).toBe(false);
    cache.resume();
    expect(cache.get('a')).toBeUndefined();
    // A check that started before or during the outage may have missed a revocation.
    expect(cache.set('c', { value: 'c', subjects: ['user-3'] }, running)).toBe(
      false,
    );
    expect(
      cache.set('c', { value: 'c', subjects: ['user-3'] }, cache.ticket()),
    ).toBe(true);
    expect(cache.get('c')).toBe('c');
  });
});
