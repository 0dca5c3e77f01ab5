import { describe, expect, it } from 'vitest';
import { callbackOutcome } from './callback-outcome';

describe('callbackOutcome', () => {
  it.each([
    [
      { status: 200, error: null, durationMs: 120 },
      'Your endpoint answered 200 in 120 ms.',
    ],
    [{ status: 204, error: null }, 'Your endpoint answered 204.'],
    [
      { status: 500, error: 'receiver answered HTTP 500' },
      'Your endpoint answered 500: only a 2xx status counts as received.',
    ],
    [
      {
        status: 302,
        error: 'receiver answered HTTP 302 (redirects are not followed)',
      },
      'Your endpoint answered 302, a redirect: redirects are not followed, answer with a 2xx status.',
    ],
    [
      {
        status: null,
        error:
          'receiver unreachable: DEPTH_ZERO_SELF_SIGNED_CERT self-signed certificate',
      },
      'We could not reach your endpoint: the TLS certificate is not trusted.',
    ],
    [
      {
        status: null,
        error: 'receiver unreachable: CERT_HAS_EXPIRED certificate has expired',
      },
      'We could not reach your endpoint: its TLS certificate has expired.',
    ],
    [
      { status: null, error: 'receiver unreachable: socket hang up' },
      'We could not reach your endpoint: the connection failed.',
    ],
    [
      { status: null, error: 'no answer within 10 s' },
      'Your endpoint did not answer within 10 s.',
    ],
    [
      {
        status: null,
        error:
          'statusCallbackUrl must not point to a private address (10.0.0.1)',
      },
      'We did not call your endpoint: the status callback URL must not point to a private address (10.0.0.1).',
    ],
    [
      {
        status: null,
        error:
          'inboundCallbackUrl host hooks.example.com resolves to a loopback address (127.0.0.1)',
      },
      'We did not call your endpoint: the inbound callback URL host hooks.example.com resolves to a loopback address (127.0.0.1).',
    ],
  ])('tells %j as a sentence', (result, sentence) => {
    expect(callbackOutcome(result)).toBe(sentence);
  });
});
