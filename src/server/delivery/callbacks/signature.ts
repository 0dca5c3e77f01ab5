/**
 * Status callbacks' signature (CONTRACT.md, "Status callbacks"):
 * `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(signing key, "<t>.<raw body>")>`, the key
 * taken as its UTF-8 bytes. The timestamp is signed with the body so a receiver can refuse old
 * replays; v1 leaves room for another scheme next to it later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Signature';

function hmac(key: string, t: number, body: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8'))
    .update(`${t}.${body}`, 'utf8')
    .digest('hex');
}

/** The X-Signature value for this raw body, signed at `nowSeconds` (unix seconds). */
export function signCallback(
  body: string,
  key: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): string {
  const t = Math.floor(nowSeconds);
  return `t=${t},v1=${hmac(key, t, body)}`;
}

/**
 * What a receiver does (tests, and the README's example): true when one v1 of the header is
 * the HMAC of "<t>.<body>" and t is within `toleranceSeconds` of now (default 5 minutes;
 * Infinity to skip the age check). Constant-time comparison.
 */
export function verifyCallbackSignature(
  header: string | undefined,
  body: string,
  key: string,
  {
    toleranceSeconds = 300,
    nowSeconds = Math.floor(Date.now() / 1000),
  }: { toleranceSeconds?: number; nowSeconds?: number } = {},
): boolean {
  if (typeof header !== 'string') return false;
  let t: number | null = null;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const [name, value] = item.trim().split('=', 2);
    if (name === 't' && value && /^\d+$/.test(value)) t = Number(value);
    if (name === 'v1' && value) signatures.push(value.toLowerCase());
  }
  if (t === null || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(key, t, body), 'utf8');
  return signatures.some((signature) => {
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
