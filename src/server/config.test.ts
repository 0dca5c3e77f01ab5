import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the CONTRACT.md defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: undefined,
      databaseEngine: undefined,
      admin: undefined,
      currency: 'EUR',
      smsPrice: '0.05',
      clientMaxMps: null,
      logLevel: 'info',
      webDir: 'dist/web',
      shutdown: { timeoutMs: 30_000, delayMs: 0 },
      metricsToken: null,
      workerPort: null,
    });
    expect(config.branding.productName).not.toBe('');
    expect(config.branding.providerName).not.toBe('');
    expect(config.branding.providerShortName.length).toBeLessThanOrEqual(11);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9090',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/console',
      DATABASE_URL: 'postgres://u:p@db:5432/console',
      DATABASE_ENGINE: 'postgres',
      ADMIN_EMAIL: 'root@example.test',
      ADMIN_PASSWORD: 'root-password',
      PRODUCT_NAME: 'Acme Console',
      PROVIDER_NAME: 'Acme Telecom',
      PROVIDER_SHORT_NAME: 'Acme',
      CURRENCY: 'USD',
      SMS_PRICE: '0.0750',
      CLIENT_MAX_MPS: '25',
      LOG_LEVEL: 'debug',
      WEB_DIR: 'public',
      HTTP_HEADERS_TIMEOUT_MS: '5000',
      HTTP_REQUEST_TIMEOUT_MS: '20000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '3000',
      HTTP_CONNECTION_TIMEOUT_MS: '0',
      MAX_CONNECTIONS: '500',
      TRUST_PROXY: 'true',
      REGISTER_LIMIT: '5',
      WEBHOOK_RATE_LIMIT: '50',
      SMPP_HOST: 'smsc.example.test',
      SMPP_PORT: '2776',
      SMPP_SYSTEM_ID: 'acme',
      SMPP_PASSWORD: 'pw',
      SMPP_SYSTEM_TYPE: 'VMA',
      SMPP_WINDOW: '20',
      SMPP_MAX_TPS: '50',
      DEFAULT_DELIVERY_METHOD: 'WORLD_SPECIAL',
      PUBLIC_URL: 'https://console.example.test/',
      DELIVERY_WORKERS: '3',
      MESSAGE_VALIDITY_SECONDS: '3600',
      SHUTDOWN_TIMEOUT_SECONDS: '45',
      SHUTDOWN_DELAY_SECONDS: '2.5',
      METRICS_TOKEN: 'a-long-scrape-token',
      WORKER_PORT: '8081',
      BACKUP_DIR: '/var/backups/console',
      BACKUP_INTERVAL_HOURS: '6',
      BACKUP_KEEP: '28',
      OPT_OUT_REPLY: 'Unsubscribed.',
      OPT_IN_REPLY: 'Subscribed.',
      HELP_REPLY: 'Call us.',
    });
    expect(config).toEqual({
      port: 9090,
      host: '0.0.0.0',
      dataDir: '/var/lib/console',
      databaseUrl: 'postgres://u:p@db:5432/console',
      databaseEngine: 'postgres',
      admin: { email: 'root@example.test', password: 'root-password' },
      branding: {
        productName: 'Acme Console',
        providerName: 'Acme Telecom',
        providerShortName: 'Acme',
      },
      currency: 'USD',
      smsPrice: '0.075',
      clientMaxMps: 25,
      logLevel: 'debug',
      webDir: 'public',
      http: {
        headersTimeoutMs: 5000,
        requestTimeoutMs: 20000,
        keepAliveTimeoutMs: 3000,
        connectionTimeoutMs: 0,
        maxConnections: 500,
      },
      trustProxy: true,
      registerLimit: 5,
      webhookRateLimit: 50,
      shutdown: { timeoutMs: 45_000, delayMs: 2_500 },
      metricsToken: 'a-long-scrape-token',
      workerPort: 8081,
      backup: {
        dir: '/var/backups/console',
        intervalMs: 6 * 3_600_000,
        keep: 28,
      },
      delivery: {
        smpp: {
          host: 'smsc.example.test',
          port: 2776,
          systemId: 'acme',
          password: 'pw',
          systemType: 'VMA',
          window: 20,
          maxTps: 50,
        },
        vonage: undefined,
        vonageSignature: undefined,
        genericGateway: undefined,
        genericGatewayToken: null,
        providerTimeoutMs: 10_000,
        statusCallbackAllowPrivate: false,
        statusCallbackDns: { servers: undefined, timeoutMs: 5_000 },
        defaultMethod: 'WORLD_SPECIAL',
        publicUrl: 'https://console.example.test',
        workers: 3,
        messageValiditySeconds: 3600,
        keywordReplies: {
          optOut: 'Unsubscribed.',
          optIn: 'Subscribed.',
          help: 'Call us.',
        },
        smsPrice: '0.075',
      },
    });
  });

  it('trusts no proxy by default, and takes only true or false', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({}).registerLimit).toBe(30);
    expect(loadConfig({}).webhookRateLimit).toBe(300);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(
      /TRUST_PROXY: must be true or false/,
    );
  });

  it('applies the delivery defaults: no SMSC (simulator), MELROSE_SMPP, one worker', () => {
    expect(loadConfig({ PORT: '9000' }).delivery).toEqual({
      smpp: undefined,
      vonage: undefined,
      vonageSignature: undefined,
      genericGateway: undefined,
      genericGatewayToken: null,
      providerTimeoutMs: 10_000,
      statusCallbackAllowPrivate: false,
      statusCallbackDns: { servers: undefined, timeoutMs: 5_000 },
      defaultMethod: 'MELROSE_SMPP',
      publicUrl: 'http://127.0.0.1:9000',
      workers: 2,
      messageValiditySeconds: 172_800,
      keywordReplies: {
        optOut:
          'You have been unsubscribed and will receive no more messages. Reply START to subscribe again.',
        optIn: 'You have been subscribed again. Reply STOP to unsubscribe.',
        help: 'Reply STOP to unsubscribe or START to subscribe again.',
      },
      smsPrice: '0.05',
    });
    expect(() => loadConfig({ HELP_REPLY: ' ' })).toThrow(
      /HELP_REPLY: must be a text of 1 to 10 SMS segments/,
    );
    expect(() => loadConfig({ OPT_OUT_REPLY: 'x'.repeat(1531) })).toThrow(
      /OPT_OUT_REPLY: must be a text of 1 to 10 SMS segments/,
    );
    expect(
      loadConfig({ SMPP_HOST: 'smsc', SMPP_SYSTEM_ID: 'id' }).delivery.smpp,
    ).toEqual({
      host: 'smsc',
      port: 2775,
      systemId: 'id',
      password: '',
      systemType: '',
      window: 50,
      maxTps: null,
    });
  });

  it('takes the DNS servers and deadline of status-callback targets', () => {
    expect(
      loadConfig({
        STATUS_CALLBACK_DNS_SERVERS: '127.0.0.1:5353, [::1]:53,10.0.0.2',
        STATUS_CALLBACK_DNS_TIMEOUT_MS: '1500',
      }).delivery.statusCallbackDns,
    ).toEqual({
      servers: ['127.0.0.1:5353', '[::1]:53', '10.0.0.2'],
      timeoutMs: 1500,
    });
    expect(() =>
      loadConfig({ STATUS_CALLBACK_DNS_SERVERS: 'dns.example.com' }),
    ).toThrow(/STATUS_CALLBACK_DNS_SERVERS: must be IP addresses/);
    expect(() => loadConfig({ STATUS_CALLBACK_DNS_TIMEOUT_MS: '10' })).toThrow(
      /STATUS_CALLBACK_DNS_TIMEOUT_MS: must be at least 100/,
    );
  });

  it('takes the HTTP providers: Vonage with its default base URL and md5hash, the gateway with its token', () => {
    const delivery = loadConfig({
      VONAGE_API_KEY: 'key',
      VONAGE_API_SECRET: 'secret',
      VONAGE_SIGNATURE_SECRET: 'sig-secret',
      WORLD_SPECIAL_URL: 'https://gw.example.test/send',
      WORLD_SPECIAL_TOKEN: 'tok',
      STATUS_CALLBACK_ALLOW_PRIVATE: 'true',
    }).delivery;
    expect(delivery).toMatchObject({
      vonage: {
        apiKey: 'key',
        apiSecret: 'secret',
        baseUrl: 'https://rest.nexmo.com',
      },
      vonageSignature: { secret: 'sig-secret', method: 'md5hash' },
      genericGateway: { url: 'https://gw.example.test/send', token: 'tok' },
      genericGatewayToken: 'tok',
      statusCallbackAllowPrivate: true,
    });
    expect(
      loadConfig({
        VONAGE_SIGNATURE_SECRET: 's',
        VONAGE_SIGNATURE_METHOD: 'sha256',
      }).delivery.vonageSignature,
    ).toEqual({ secret: 's', method: 'sha256' });
    expect(() => loadConfig({ VONAGE_API_KEY: 'key' })).toThrow(
      /VONAGE_API_KEY and VONAGE_API_SECRET must be set together/,
    );
    expect(() =>
      loadConfig({ WORLD_SPECIAL_URL: 'https://gw.example.test' }),
    ).toThrow(/WORLD_SPECIAL_URL needs WORLD_SPECIAL_TOKEN/);
    for (const [name, value] of [
      ['VONAGE_BASE_URL', 'ftp://x'],
      ['VONAGE_SIGNATURE_METHOD', 'crc32'],
      ['WORLD_SPECIAL_URL', 'not a url'],
      ['STATUS_CALLBACK_ALLOW_PRIVATE', 'yes'],
    ]) {
      expect(() => loadConfig({ [name!]: value }), name).toThrow(
        new RegExp(`${name}:`),
      );
    }
  });

  it('refuses bad delivery settings, and DELIVERY_WORKERS=0 on the embedded database', () => {
    for (const [name, value] of [
      ['SMPP_PORT', '0'],
      ['SMPP_WINDOW', '0'],
      ['SMPP_MAX_TPS', '-5'],
      ['SMPP_PASSWORD', 'longer-than-8'],
      ['DEFAULT_DELIVERY_METHOD', 'CARRIER_PIGEON'],
      ['PUBLIC_URL', 'ftp://x'],
      ['DELIVERY_WORKERS', '-1'],
      ['MESSAGE_VALIDITY_SECONDS', '0'],
      ['MESSAGE_VALIDITY_SECONDS', '1.5'],
    ]) {
      expect(() => loadConfig({ [name!]: value }), name).toThrow(
        new RegExp(`${name}:`),
      );
    }
    expect(() => loadConfig({ DELIVERY_WORKERS: '0' })).toThrow(
      /DELIVERY_WORKERS: 0 \(accept only\) needs DATABASE_URL/,
    );
    expect(
      loadConfig({ DELIVERY_WORKERS: '0', DATABASE_URL: 'postgres://db/x' })
        .delivery.workers,
    ).toBe(0);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', CURRENCY: '' })).toMatchObject({
      port: 8080,
      currency: 'EUR',
    });
  });

  it('fails listing every bad variable at once', () => {
    let message = '';
    try {
      loadConfig({
        PORT: 'abc',
        CURRENCY: 'euro',
        SMS_PRICE: '-1',
        CLIENT_MAX_MPS: '0',
        DATABASE_URL: 'mysql://x',
        DATABASE_ENGINE: 'sqlite',
        LOG_LEVEL: 'loud',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of [
      'PORT',
      'CURRENCY',
      'SMS_PRICE',
      'CLIENT_MAX_MPS',
      'DATABASE_URL',
      'DATABASE_ENGINE',
      'LOG_LEVEL',
    ]) {
      expect(message).toContain(`${name}:`);
    }
  });

  it('refuses a port out of range and an invalid admin e-mail', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ PORT: '80.5' })).toThrow(/PORT/);
    expect(() => loadConfig({ WORKER_PORT: '70000' })).toThrow(/WORKER_PORT/);
    expect(() => loadConfig({ WORKER_PORT: 'metrics' })).toThrow(/WORKER_PORT/);
    expect(() =>
      loadConfig({ ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'password-1' }),
    ).toThrow(/ADMIN_EMAIL/);
  });

  it('takes scheduled backups only with BACKUP_DIR: every 24 h keeping 7, fractional hours allowed', () => {
    expect(loadConfig({}).backup).toBeNull();
    expect(loadConfig({ BACKUP_KEEP: '3' }).backup).toBeNull();
    expect(loadConfig({ BACKUP_DIR: '/backups' }).backup).toEqual({
      dir: '/backups',
      intervalMs: 24 * 3_600_000,
      keep: 7,
    });
    expect(
      loadConfig({
        BACKUP_DIR: '/backups',
        BACKUP_INTERVAL_HOURS: '0.5',
        BACKUP_KEEP: '30',
      }).backup,
    ).toEqual({ dir: '/backups', intervalMs: 1_800_000, keep: 30 });
    for (const bad of ['0', '-1', 'daily', '0.0001']) {
      expect(() =>
        loadConfig({ BACKUP_DIR: '/b', BACKUP_INTERVAL_HOURS: bad }),
      ).toThrow(/BACKUP_INTERVAL_HOURS/);
    }
    for (const bad of ['0', '1.5', 'all']) {
      expect(() => loadConfig({ BACKUP_DIR: '/b', BACKUP_KEEP: bad })).toThrow(
        /BACKUP_KEEP/,
      );
    }
  });

  it('needs ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@example.test' })).toThrow(
      /ADMIN_EMAIL and ADMIN_PASSWORD/,
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'password-1' })).toThrow(
      /ADMIN_EMAIL and ADMIN_PASSWORD/,
    );
  });

  it('bounds slow and idle clients by default, and trusts no proxy', () => {
    expect(loadConfig({})).toMatchObject({
      http: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        connectionTimeoutMs: 60_000,
        maxConnections: 10_000,
      },
      trustProxy: false,
    });
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('refuses bad connection limits', () => {
    const cases: [string, string][] = [
      ['HTTP_HEADERS_TIMEOUT_MS', '0'],
      ['HTTP_REQUEST_TIMEOUT_MS', '-5'],
      ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '1.5'],
      ['HTTP_CONNECTION_TIMEOUT_MS', 'soon'],
      ['MAX_CONNECTIONS', '0'],
      ['TRUST_PROXY', 'maybe'],
    ];
    for (const [name, value] of cases) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(
        new RegExp(`${name}:`),
      );
    }
    expect(() =>
      loadConfig({
        HTTP_HEADERS_TIMEOUT_MS: '40000',
        HTTP_REQUEST_TIMEOUT_MS: '30000',
      }),
    ).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
  });

  it('takes as default sender only what the API accepts as a sender', () => {
    for (const name of ['Skyline', 'Acme Tel', '+447700900123']) {
      expect(
        loadConfig({ PROVIDER_SHORT_NAME: name }).branding.providerShortName,
      ).toBe(name);
    }
    for (const name of [
      'Skyline Telecom',
      'Sky\u202Eline',
      'Sky\u200Bline',
      'Скайлайн',
      'Sky€',
    ]) {
      expect(() => loadConfig({ PROVIDER_SHORT_NAME: name }), name).toThrow(
        /PROVIDER_SHORT_NAME: Sender must be up to 11/,
      );
    }
  });
});
