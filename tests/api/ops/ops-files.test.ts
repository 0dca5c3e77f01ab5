import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startServer, type TestServer } from '../../support/start-server.ts';

/**
 * The operator's files in ops/ (issue 29 part 5): the Grafana dashboard and the Prometheus
 * alerts name only metrics the server really exports, and the systemd unit is one systemd
 * accepts.
 */
const ROOT = join(import.meta.dirname, '../../..');
const OPS = join(ROOT, 'ops');

const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/** The metric names a PromQL expression reads (not functions, keywords or label names). */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(
      /\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g,
      ' ',
    );
  const names = new Set<string>();
  for (const match of bare.matchAll(/[a-zA-Z_:][\w:]*(?!\w)(?!\s*\()/g)) {
    const name = match[0];
    if (!KEYWORDS.has(name.toLowerCase())) names.add(name);
  }
  return [...names];
}

function alertRules(): {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}[] {
  const file = parse(readFileSync(join(OPS, 'prometheus-alerts.yml'), 'utf8'));
  return file.groups.flatMap((group: { rules: unknown[] }) => group.rules);
}

function dashboardExprs(): string[] {
  const dashboard = JSON.parse(
    readFileSync(join(OPS, 'grafana-dashboard.json'), 'utf8'),
  );
  return dashboard.panels.flatMap(
    (panel: { targets?: { expr: string }[] }) =>
      panel.targets?.map((t) => t.expr) ?? [],
  );
}

let server: TestServer;
/** The metric families on /metrics of a running server, with their types. */
let families: Map<string, string>;
beforeAll(async () => {
  server = await startServer();
  const text = await (await fetch(`${server.url}/metrics`)).text();
  families = new Map(
    [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [
      name!,
      type!,
    ]),
  );
});
afterAll(async () => server?.close());

/** Whether `name` is a series of the server's /metrics (a histogram's _bucket, _sum, _count too). */
function exported(name: string): boolean {
  if (families.has(name)) return true;
  const family = /^(.*)_(?:bucket|sum|count)$/.exec(name)?.[1];
  return family !== undefined && families.get(family) === 'histogram';
}

describe('metricNames', () => {
  it('finds the metrics of an expression and nothing else', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{job=~"$job",status=~"5.."}[5m])))' +
          ' / on (instance) group_left time() - max without (instance) (backup_last_success_timestamp_seconds) > 26 * 3600 and up == 1',
      ).sort(),
    ).toEqual([
      'backup_last_success_timestamp_seconds',
      'http_request_duration_seconds_bucket',
      'up',
    ]);
  });
});

describe('ops/prometheus-alerts.yml', () => {
  it('has the alerts operators rely on, each with a severity and a summary', () => {
    const rules = alertRules();
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'SmsQueueDepthGrowing',
        'SmppBindDown',
        'StatusCallbacksFailing',
        'NoRecentBackup',
        'HighHttp5xxRate',
      ]),
    );
    for (const rule of rules) {
      expect(rule.labels.severity, rule.alert).toMatch(
        /^(critical|warning|info)$/,
      );
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      expect(rule.expr, rule.alert).toBeTruthy();
    }
    const noBackup = rules.find((r) => r.alert === 'NoRecentBackup')!;
    expect(metricNames(noBackup.expr)).toEqual([
      'backup_last_success_timestamp_seconds',
    ]);
    expect(noBackup.expr).toContain('26 * 3600');
  });

  it('reads only metrics the server exports', () => {
    const names = new Set(alertRules().flatMap((r) => metricNames(r.expr)));
    expect(names).toContain('sms_queue_depth');
    expect(names).toContain('smpp_bind_up');
    for (const name of names) {
      expect(exported(name), name).toBe(true);
    }
  });
});

/** promtool (Prometheus' own checker), where installed: Debian's `prometheus` package has it. */
const promtool = process.env.PROMTOOL ?? 'promtool';
const hasPromtool = spawnSync(promtool, ['--version']).error === undefined;

describe.skipIf(!hasPromtool)('promtool', () => {
  it('accepts the rules and passes their unit tests (ops/prometheus-alerts.test.yml)', () => {
    const test = spawnSync(
      promtool,
      ['test', 'rules', join(OPS, 'prometheus-alerts.test.yml')],
      { encoding: 'utf8' },
    );
    expect(test.stdout + test.stderr).toContain('SUCCESS');
    expect(test.status).toBe(0);
  });

  it("finds nothing to say about the server's /metrics", async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const check = spawnSync(promtool, ['check', 'metrics'], {
      input: text,
      encoding: 'utf8',
    });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});

describe('ops/grafana-dashboard.json', () => {
  it('charts only metrics the server exports, the contract ones among them', () => {
    const names = new Set(dashboardExprs().flatMap(metricNames));
    for (const wanted of [
      'sms_messages_total',
      'sms_queue_depth',
      'sms_submit_duration_seconds_bucket',
      'smpp_bind_up',
      'status_callback_attempts_total',
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'delivery_method_simulated',
      'build_info',
      'sms_inbound_total',
      'sms_inbound_unrouted_total',
      'sms_optouts_total',
    ]) {
      expect(names, wanted).toContain(wanted);
    }
    for (const name of names) {
      expect(exported(name), name).toBe(true);
    }
  });
});

describe('ops/console.service', () => {
  const unit = readFileSync(join(OPS, 'console.service'), 'utf8');

  it('is hardened', () => {
    for (const line of [
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'PrivateDevices=yes',
      'CapabilityBoundingSet=',
      'RestrictSUIDSGID=yes',
      'SystemCallFilter=@system-service',
      'StateDirectory=messaging-console',
      'UMask=0077',
      'KillMode=mixed',
    ]) {
      expect(unit.split('\n'), line).toContain(line);
    }
    // Longer than the server's own SHUTDOWN_TIMEOUT_SECONDS (30 by default).
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1])).toBeGreaterThan(
      30,
    );
  });

  const analyze = spawnSync('systemd-analyze', ['--version']);
  it.skipIf(analyze.error !== undefined)(
    'passes systemd-analyze verify',
    () => {
      // The unit names the checkout as /opt/messaging-console: verify it against this one,
      // whose node binary exists.
      const dir = mkdtempSync(join(tmpdir(), 'console-unit-'));
      try {
        const path = join(dir, 'console.service');
        writeFileSync(
          path,
          unit.replaceAll(
            '/opt/messaging-console',
            ROOT.replaceAll(' ', '\\x20'),
          ),
        );
        const verify = spawnSync('systemd-analyze', ['verify', path], {
          encoding: 'utf8',
        });
        expect(verify.stderr + verify.stdout).toBe('');
        expect(verify.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
