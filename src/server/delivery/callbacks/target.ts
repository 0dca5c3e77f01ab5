/**
 * Where a callback may go (status and inbound callbacks alike). Customers choose the URL, and
 * our server makes the request: without these checks a customer could make it POST to our own
 * loopback services, the cloud metadata endpoint (169.254.169.254) or the private network
 * behind it (SSRF).
 *
 * - checkCallbackTarget: what can be said from the URL alone (scheme, literal IP addresses);
 *   for PUT /api/clients/{id}, answered as a 400.
 * - resolveCallbackTarget: the same, then resolves the name (all its addresses) and refuses it
 *   if ANY address is forbidden; the sender connects to the address it returns, so a name that
 *   resolves to a public address at check time and to 127.0.0.1 at connect time (DNS
 *   rebinding) cannot slip through.
 * Both let everything through with allowPrivate (STATUS_CALLBACK_ALLOW_PRIVATE=true, tests).
 */
import { BlockList, isIP } from 'node:net';
import { callbackLookup, type DnsOptions, type Lookup } from './dns.ts';

export interface CallbackTargetOptions {
  allowPrivate?: boolean;
  /**
   * The client field the URL came from, named in every refusal: 'statusCallbackUrl' (the
   * default) or 'inboundCallbackUrl'. One set of rules for both kinds of callback.
   */
  field?: CallbackUrlField | undefined;
}

/** The client fields that hold a callback URL. */
export type CallbackUrlField = 'statusCallbackUrl' | 'inboundCallbackUrl';

export interface ResolveOptions extends CallbackTargetOptions {
  /** DNS servers and deadline of the default lookup (see dns.ts). */
  dns?: DnsOptions | undefined;
  /** The client whose target this is: its lookups take turns (LOOKUPS_PER_CLIENT). */
  clientId?: string | undefined;
  /** DNS resolution (default: c-ares with a deadline, see dns.ts); tests may pass their own. */
  lookup?: Lookup | undefined;
}

export type CheckedTarget =
  { ok: true; url: URL } | { ok: false; message: string };

export type ResolvedTarget =
  | { ok: true; url: URL; address: string; family: 4 | 6 }
  | { ok: false; message: string };

const DEFAULT_FIELD: CallbackUrlField = 'statusCallbackUrl';
const MAX_URL_LENGTH = 2048;

type Rule = [network: string, prefix: number, why: string];

const IPV4_RULES: Rule[] = [
  ['0.0.0.0', 8, 'an unspecified ("this network") address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.0.2.0', 24, 'a reserved (documentation) address'],
  ['192.88.99.0', 24, 'a reserved (6to4 relay) address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a reserved (benchmarking) address'],
  ['198.51.100.0', 24, 'a reserved (documentation) address'],
  ['203.0.113.0', 24, 'a reserved (documentation) address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

const IPV6_RULES: Rule[] = [
  ['::1', 128, 'a loopback address'],
  ['::', 128, 'an unspecified address'],
  ['::', 96, 'a reserved (IPv4-compatible) address'],
  ['100::', 64, 'a reserved (discard) address'],
  ['64:ff9b:1::', 48, 'a reserved (local NAT64) address'],
  ['2001::', 23, 'a reserved address'],
  ['2001:db8::', 32, 'a reserved (documentation) address'],
  ['fc00::', 7, 'a private (unique local) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

function compile(rules: Rule[], family: 'ipv4' | 'ipv6') {
  return rules.map(([network, prefix, why]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, why };
  });
}
const IPV4 = compile(IPV4_RULES, 'ipv4');
const IPV6 = compile(IPV6_RULES, 'ipv6');

/** The 16 bytes of an IPv6 address (zone id dropped), or null. */
function ipv6Bytes(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  // A dotted IPv4 tail (::ffff:127.0.0.1) becomes its two hex groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
    ];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, dotted.index)}${hex(a, b)}:${hex(c, d)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) =>
    part === ''
      ? []
      : part
          .split(':')
          .map((h) => (/^[0-9a-f]{1,4}$/i.test(h) ? parseInt(h, 16) : NaN));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const words = [...head, ...Array<number>(missing).fill(0), ...rest];
  if (words.some((w) => Number.isNaN(w))) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/**
 * Why this IP address may not receive callbacks (e.g. 'a loopback address'), or null when it
 * may. IPv6 forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-translated
 * ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address.
 */
export function forbiddenAddressReason(address: string): string | null {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) {
    return IPV4.find(({ list }) => list.check(address, 'ipv4'))?.why ?? null;
  }
  if (family !== 6) return 'not an IP address';
  const bytes = ipv6Bytes(address);
  if (!bytes) return 'not an IP address';
  const v4 = (offset: number) => bytes.slice(offset, offset + 4).join('.');
  const zero = (from: number, to: number) =>
    bytes.slice(from, to).every((b) => b === 0);
  let embedded: string | null = null;
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    embedded = v4(12); // ::ffff:a.b.c.d
  } else if (
    zero(0, 8) &&
    bytes[8] === 0xff &&
    bytes[9] === 0xff &&
    zero(10, 12)
  ) {
    embedded = v4(12); // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765)
  } else if (
    bytes[0] === 0 &&
    bytes[1] === 0x64 &&
    bytes[2] === 0xff &&
    bytes[3] === 0x9b &&
    zero(4, 12)
  ) {
    embedded = v4(12); // 64:ff9b::a.b.c.d
  } else if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    embedded = v4(2); // 2002:AABB:CCDD::
  }
  if (embedded !== null) {
    const why = forbiddenAddressReason(embedded);
    return why ? `${why} (IPv4 ${embedded} inside IPv6)` : null;
  }
  const canonical = address.replace(/%.*$/, '');
  return IPV6.find(({ list }) => list.check(canonical, 'ipv6'))?.why ?? null;
}

/** The URL's host as an IP address when it is one ('[::1]' → '::1'), else null. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : null;
}

/** Checks what the URL alone tells: an http(s) URL whose literal IP, if any, is allowed. */
export function checkCallbackTarget(
  url: string,
  {
    allowPrivate = false,
    field: FIELD = DEFAULT_FIELD,
  }: CallbackTargetOptions = {},
): CheckedTarget {
  if (typeof url !== 'string' || url.length > MAX_URL_LENGTH) {
    return {
      ok: false,
      message: `${FIELD} must be an http(s) URL of at most ${MAX_URL_LENGTH} characters`,
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: `${FIELD} must be an absolute http(s) URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, message: `${FIELD} must be an http or https URL` };
  }
  if (!parsed.hostname) {
    return { ok: false, message: `${FIELD} must name a host` };
  }
  const literal = literalAddress(parsed);
  if (literal && !allowPrivate) {
    const why = forbiddenAddressReason(literal);
    if (why) {
      return {
        ok: false,
        message: `${FIELD} must not point to ${why} (${literal})`,
      };
    }
  }
  return { ok: true, url: parsed };
}

/**
 * checkCallbackTarget, then the name's addresses as DNS answers now: refused if it does not
 * resolve (in time) or if any of them is forbidden. Returns the address to connect to.
 */
export async function resolveCallbackTarget(
  url: string,
  {
    allowPrivate = false,
    field: FIELD = DEFAULT_FIELD,
    dns,
    clientId,
    lookup,
  }: ResolveOptions = {},
): Promise<ResolvedTarget> {
  const checked = checkCallbackTarget(url, { allowPrivate, field: FIELD });
  if (!checked.ok) return checked;
  const literal = literalAddress(checked.url);
  if (literal) {
    return {
      ok: true,
      url: checked.url,
      address: literal,
      family: isIP(literal) === 6 ? 6 : 4,
    };
  }
  const host = checked.url.hostname;
  let addresses: readonly { address: string; family: number }[];
  try {
    addresses = await (lookup ?? callbackLookup({ ...dns, clientId }))(host);
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    // A timeout or the per-client cap is ours to explain; a resolver's code speaks for itself.
    const why = code === 'ETIMEOUT' || code === 'ELIMIT' ? `: ${message}` : '';
    return {
      ok: false,
      message: `${FIELD} host ${host} does not resolve${why}${code ? ` (${code})` : ''}`,
    };
  }
  const usable = addresses.filter((a) => isIP(a.address) !== 0);
  if (usable.length === 0) {
    return { ok: false, message: `${FIELD} host ${host} does not resolve` };
  }
  if (!allowPrivate) {
    for (const { address } of usable) {
      const why = forbiddenAddressReason(address);
      if (why) {
        return {
          ok: false,
          message: `${FIELD} host ${host} resolves to ${why} (${address})`,
        };
      }
    }
  }
  const first = usable[0]!;
  return {
    ok: true,
    url: checked.url,
    address: first.address,
    family: isIP(first.address) === 6 ? 6 : 4,
  };
}
