import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialCache } from './credential-cache.ts';

describe('CredentialCache.keyOf', () => {
  it('is an HMAC-SHA256 of the pair under a per-process key', () => {
    const cache = new CredentialCache<string>();
    // The pads are private: recover the key from the inner pad to compare with createHmac.
    const innerPad = (cache as unknown as { innerPad: Buffer }).innerPad;
    const key = Buffer.from(innerPad.subarray(0, 32).map((b) => b ^ 0x36));
    const expected = createHmac('sha256', key)
      .update('ada@example.test\0password-123')
      .digest('base64');
    expect(cache.keyOf('ada@example.test', 'password-123')).toBe(expected);
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
