// @also-on-pglite: sign-in tries counted in memory on the embedded engines, and known addresses in a DATA_DIR that outlives a server.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kdfStats } from '../../../src/server/auth/passwords.ts';
import { eventually } from '../../support/eventually.ts';
import { type Answer, basic, httpClient } from '../../support/http.ts';
import {
  adminHttp,
  createClient,
  registerUser,
  setRoles,
  uniqueEmail,
} from '../../support/seed.ts';
import {
  migratedTemplateOf,
  startServer,
  type TestServer,
} from '../../support/start-server.ts';

/*
 * Issue 9, authentication: the throttle cannot be raced, a credential change cannot be undone
 * by a check in flight, one password cannot keep the KDF busy, and nobody can lock another
 * user or client out. The server trusts X-Forwarded-For (TRUST_PROXY=true) so each test can
 * stand at its own addresses; a second server without it checks that the header is ignored.
 */

let server: TestServer;
let untrusting: TestServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: 'true', REGISTER_LIMIT: '30' });
  untrusting = await startServer();
});
afterAll(async () => {
  await server.close();
  await untrusting.close();
});

/** A fresh documentation address (2001:db8::/32) for each caller. */
let lastAddress = 0;
function freshAddress(): string {
  lastAddress += 1;
  return `2001:db8::${lastAddress.toString(16)}`;
}

/** The n-th spelling of a user name, upper-casing letters by the bits of n. */
function spelling(name: string, n: number): string {
  let bit = 0;
  return [...name]
    .map((c) => {
      if (c.toLowerCase() === c.toUpperCase()) return c;
      const upper = (n >> bit++) & 1;
      return upper ? c.toUpperCase() : c;
    })
    .join('');
}

/** One request with Basic credentials, standing at `from` (through the trusted proxy). */
async function call(
  base: string,
  path: string,
  username: string,
  password: string,
  from?: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: basic(username, password),
  };
  if (from) headers['x-forwarded-for'] = from;
  return httpClient(base).request(
    init.method ?? 'GET',
    path,
    init.body,
    headers,
  );
}

describe('the login throttle decides before the password check', () => {
  it('checks at most 10 of 200 simultaneous wrong passwords for one account; the right one among them is refused', async () => {
    const victim = await registerUser(server.url);
    const from = freshAddress();
    const passwords = Array.from({ length: 200 }, (_, i) =>
      i === 150 ? victim.password : `wrong-password-${i}`,
    );
    const answers = await Promise.all(
      passwords.map((password) =>
        call(server.url, '/api/users/me', victim.email, password, from),
      ),
    );
    const statuses = answers.map((a) => a.status);
    const checked = statuses.filter((s) => s === 401 || s === 200).length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBe(200 - checked);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('holds the allowance against a second burst while the first is still being checked', async () => {
    const victim = await registerUser(server.url);
    const from = freshAddress();
    const burst = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) =>
        call(server.url, '/api/users/me', victim.email, `${tag}-${i}`, from),
      );
    const first = burst(30, 'first');
    await new Promise((r) => setTimeout(r, 5));
    const answers = await Promise.all([...first, ...burst(30, 'second')]);
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(
      10,
    );
  });
});

/**
 * Keeps sending `request` (16 at a time) while `change` runs. Each request gets its own number,
 * used to spell the user name differently, so checks are in flight at every moment (before the
 * fix each spelling was a cache entry of its own). Answers the change's answer and every
 * success that came too late: a request sent after the change was answered, or a spelling
 * that was being checked while the change ran and succeeds again once everything settled (its
 * check wrote the old credential back into the cache).
 */
async function hammerDuring(
  request: (n: number) => Promise<Answer>,
  change: () => Promise<Answer>,
): Promise<{ changed: Answer; before: number; late: string[] }> {
  const sent: { n: number; at: number; doneAt: number; status: number }[] = [];
  let stop = false;
  let next = 0;
  const worker = async () => {
    while (!stop) {
      const n = (next += 1);
      const at = performance.now();
      const answer = await request(n);
      sent.push({ n, at, doneAt: performance.now(), status: answer.status });
    }
  };
  const workers = Array.from({ length: 16 }, worker);
  // Change once the old credential has been seen to work (and a few more checks are running).
  for (let waited = 0; waited < 5000; waited += 10) {
    if (sent.some((s) => s.status === 200)) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 20));
  const changeSentAt = performance.now();
  const changed = await change();
  const changedAt = performance.now();
  // Keep hammering for a few rounds of every worker after the change (counted, not timed: a
  // loaded machine answers fewer requests in a given time).
  await eventually(
    () => sent.filter((s) => s.at > changedAt).length,
    (after) => after >= 48,
    { what: '48 requests sent after the change', interval: 10 },
  );
  stop = true;
  await Promise.all(workers);
  const late = sent
    .filter((s) => s.at > changedAt && s.status === 200)
    .map((s) => `request ${s.n} sent after the change`);
  const inFlight = sent.filter(
    (s) => s.at < changedAt && s.doneAt > changeSentAt,
  );
  for (const s of inFlight) {
    if ((await request(s.n)).status === 200) {
      late.push(`spelling ${s.n} still cached`);
    }
  }
  const before = sent.filter(
    (s) => s.doneAt < changeSentAt && s.status === 200,
  ).length;
  return { changed, before, late };
}

describe('a credential change is final, even against checks in flight', () => {
  it('the old password stops working at the 204 of a password change', async () => {
    const user = await registerUser(server.url);
    const from = freshAddress();
    const old = (n = 0) =>
      call(
        server.url,
        '/api/users/me',
        spelling(user.email, n),
        user.password,
        from,
      );
    const { changed, before, late } = await hammerDuring(old, () =>
      call(
        server.url,
        '/api/users/me/password',
        user.email,
        user.password,
        freshAddress(),
        {
          method: 'PUT',
          body: {
            currentPassword: user.password,
            newPassword: 'new-password-456',
          },
        },
      ),
    );
    expect(changed.status).toBe(204);
    expect(before).toBeGreaterThan(0);
    expect(late).toEqual([]);
    const fresh = await call(
      server.url,
      '/api/users/me',
      user.email,
      'new-password-456',
      freshAddress(),
    );
    expect(fresh.status).toBe(200);
  });

  it('an e-mail change drops the old e-mail at once', async () => {
    const user = await registerUser(server.url);
    const old = (n = 0) =>
      call(
        server.url,
        '/api/users/me',
        spelling(user.email, n),
        user.password,
        freshAddress(),
      );
    const { changed, before, late } = await hammerDuring(old, () =>
      call(
        server.url,
        '/api/users/me',
        user.email,
        user.password,
        freshAddress(),
        {
          method: 'PUT',
          body: {
            email: uniqueEmail('moved'),
            firstName: 'Ada',
            lastName: 'Lovelace',
            organization: 'Analytical Engines',
          },
        },
      ),
    );
    expect(changed.status).toBe(200);
    expect(before).toBeGreaterThan(0);
    expect(late).toEqual([]);
  });

  it('a reset secret stops at once', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const path = `/api/clients/${client.id}/balances/default`;
    const useOld = (n = 0) =>
      call(
        server.url,
        path,
        spelling(client.id, n),
        client.secret,
        freshAddress(),
      );
    const { changed, before, late } = await hammerDuring(useOld, () =>
      http.post(`/api/clients/${client.id}/resetSecret`),
    );
    expect(changed.status).toBe(200);
    expect(before).toBeGreaterThan(0);
    expect(late).toEqual([]);
  });

  it('a deleted client stops at once', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const path = `/api/clients/${client.id}/balances/default`;
    const use = (n = 0) =>
      call(
        server.url,
        path,
        spelling(client.id, n),
        client.secret,
        freshAddress(),
      );
    const { changed, before, late } = await hammerDuring(use, () =>
      http.delete(`/api/clients/${client.id}`),
    );
    expect(changed.status).toBe(204);
    expect(before).toBeGreaterThan(0);
    expect(late).toEqual([]);
  });

  it('a removed role stops granting at once', async () => {
    const staff = await registerUser(server.url);
    await setRoles(server.url, staff.user.id, ['ROLE_USER_LIST']);
    const list = (n = 0) =>
      call(
        server.url,
        '/api/admin/users',
        spelling(staff.email, n),
        staff.password,
        freshAddress(),
      );
    const { changed, before, late } = await hammerDuring(list, () =>
      adminHttp(server.url).put(
        `/api/admin/users/${staff.user.id}/roles/remove`,
        { role: 'ROLE_USER_LIST' },
      ),
    );
    expect(changed.status).toBe(200);
    expect(before).toBeGreaterThan(0);
    expect(late).toEqual([]);
  });
});

describe('password checks cannot be used to burn CPU', () => {
  it('shares one cache entry between the letter cases of an e-mail', async () => {
    const user = await registerUser(server.url);
    const from = freshAddress();
    expect(
      (await call(server.url, '/api/users/me', user.email, user.password, from))
        .status,
    ).toBe(200);
    // Lock the account at this address: only a cached credential still passes.
    for (let i = 0; i < 10; i++) {
      await call(server.url, '/api/users/me', user.email, `wrong-${i}`, from);
    }
    const shouted = await call(
      server.url,
      '/api/users/me',
      user.email.toUpperCase(),
      user.password,
      from,
    );
    expect(shouted.status).toBe(200);
    expect(shouted.body.email).toBe(user.email);
  });

  it('runs one check for 40 simultaneous spellings of the right password, and caps KDF work', async () => {
    const user = await registerUser(server.url);
    const from = freshAddress();
    const spellings = Array.from({ length: 40 }, (_, i) =>
      [...user.email]
        .map((c, j) => ((i >> (j % 6)) & 1 ? c.toUpperCase() : c))
        .join(''),
    );
    const before = kdfStats();
    const answers = await Promise.all(
      spellings.map((email) =>
        call(server.url, '/api/users/me', email, user.password, from),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(spellings.map(() => 200));
    expect(kdfStats().completed - before.completed).toBe(1);

    // Many users at once: never more KDF runs at a time than the cap.
    const users = await Promise.all(
      Array.from({ length: 6 }, () => registerUser(server.url)),
    );
    await Promise.all(
      users.map((u) =>
        call(server.url, '/api/users/me', u.email, u.password, freshAddress()),
      ),
    );
    expect(kdfStats().peak).toBeLessThanOrEqual(kdfStats().limit);
    expect(kdfStats().limit).toBeLessThanOrEqual(4);
  });
});

describe('registration is limited per address', () => {
  it('takes 30 a minute from one address, then answers 429 with Retry-After; other addresses still register', async () => {
    const from = freshAddress();
    const register = (at: string) =>
      httpClient(server.url).post(
        '/api/register',
        {
          email: uniqueEmail('bulk'),
          password: 'password-123',
          firstName: 'Bulk',
          lastName: 'Bot',
          organization: '',
        },
        { 'x-forwarded-for': at },
      );
    const answers: Answer[] = [];
    for (let i = 0; i < 31; i++) answers.push(await register(from));
    expect(answers.slice(0, 30).map((a) => a.status)).toEqual(
      Array(30).fill(201),
    );
    const refused = answers[30]!;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'rate_limited',
      message: 'Too many registrations from this address. Try again later.',
    });
    expect((await register(freshAddress())).status).toBe(201);
  });
});

describe('nobody can lock someone else out', () => {
  it('wrong passwords from one address do not lock the owner out at another', async () => {
    const owner = await registerUser(server.url);
    const attacker = freshAddress();
    for (let i = 0; i < 15; i++) {
      await call(
        server.url,
        '/api/users/me',
        owner.email,
        `guess-${i}`,
        attacker,
      );
    }
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          owner.email,
          owner.password,
          attacker,
        )
      ).status,
    ).toBe(429);
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          owner.email,
          owner.password,
          freshAddress(),
        )
      ).status,
    ).toBe(200);
  });

  it('a client id is throttled per address only: wrong secrets never stop the client', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const path = `/api/clients/${client.id}/balances/default`;
    const attacker = freshAddress();
    for (let i = 0; i < 15; i++) {
      expect(
        (await call(server.url, path, client.id, `nope-${i}`, attacker)).status,
      ).toBe(401);
    }
    expect(
      (await call(server.url, path, client.id, client.secret, freshAddress()))
        .status,
    ).toBe(200);
    expect(
      (await call(server.url, path, client.id, client.secret, attacker)).status,
    ).toBe(200);
  });

  it('wrong secrets from an address are refused after 100, never a right one there', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const path = `/api/clients/${client.id}/balances/default`;
    const attacker = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) {
      const someId = crypto.randomUUID();
      statuses.push(
        (
          await call(
            server.url,
            `/api/clients/${someId}/balances/default`,
            someId,
            'x',
            attacker,
          )
        ).status,
      );
    }
    expect(statuses.slice(0, 100).every((s) => s === 401)).toBe(true);
    expect(statuses[100]).toBe(429);
    expect(
      (await call(server.url, path, client.id, client.secret, attacker)).status,
    ).toBe(200);
    expect(
      (await call(server.url, path, client.id, client.secret, freshAddress()))
        .status,
    ).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const owner = await registerUser(untrusting.url);
    for (let i = 0; i < 10; i++) {
      await call(
        untrusting.url,
        '/api/users/me',
        owner.email,
        `guess-${i}`,
        freshAddress(),
      );
    }
    // Every try came from 127.0.0.1 whatever the header said: that address is locked.
    expect(
      (
        await call(
          untrusting.url,
          '/api/users/me',
          owner.email,
          owner.password,
          freshAddress(),
        )
      ).status,
    ).toBe(429);
  });
});

/** Signs up without signing in: the first sign-in is the test's own (nothing cached yet). */
async function signUp(base: string) {
  const user = await registerUser(base);
  return { email: user.email, password: user.password, id: user.user.id };
}

describe('a correct credential is not refused for other credentials’ failures (issue 15)', () => {
  it('a stale secret from one address does not lock out the new secret or a user there', async () => {
    const { http } = await registerUser(server.url);
    const client = await createClient(http);
    const reset = await http.post(`/api/clients/${client.id}/resetSecret`);
    expect(reset.status).toBe(200);
    const fresh: string = reset.body.secret;
    const path = `/api/clients/${client.id}/balances/default`;
    const host = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 105; i++) {
      statuses.push(
        (await call(server.url, path, client.id, client.secret, host)).status,
      );
    }
    // Wrong secrets are still bounded: 100 a minute from one address, then 429.
    expect(statuses.slice(0, 100)).toEqual(Array(100).fill(401));
    expect(statuses.slice(100)).toEqual(Array(5).fill(429));
    expect((await call(server.url, path, client.id, fresh, host)).status).toBe(
      200,
    );
    const colleague = await signUp(server.url);
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          colleague.email,
          colleague.password,
          host,
        )
      ).status,
    ).toBe(200);
  });

  it('100 wrong passwords across accounts stop new sign-ins from that address, but not a user who signed in there before', async () => {
    const regular = await signUp(server.url);
    const newcomer = await signUp(server.url);
    const sprayer = freshAddress();
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          regular.email,
          regular.password,
          sprayer,
        )
      ).status,
    ).toBe(200);
    // The cached credential would pass anyway: a new password is checked for real.
    expect(
      (
        await call(
          server.url,
          '/api/users/me/password',
          regular.email,
          regular.password,
          sprayer,
          {
            method: 'PUT',
            body: {
              currentPassword: regular.password,
              newPassword: 'changed-password-1',
            },
          },
        )
      ).status,
    ).toBe(204);
    const sprayed = await Promise.all(
      Array.from({ length: 101 }, () =>
        call(
          server.url,
          '/api/users/me',
          uniqueEmail('sprayed'),
          'password-123',
          sprayer,
        ),
      ),
    );
    const statuses = sprayed.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBe(100);
    expect(statuses.filter((s) => s === 429).length).toBe(1);
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          newcomer.email,
          newcomer.password,
          sprayer,
        )
      ).status,
    ).toBe(429);
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          regular.email,
          'changed-password-1',
          sprayer,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          newcomer.email,
          newcomer.password,
          freshAddress(),
        )
      ).status,
    ).toBe(200);
  });
});

/** 20 wrong passwords for `email`, each from a new address. */
async function guessFromTwentyAddresses(base: string, email: string) {
  for (let i = 0; i < 20; i++) {
    expect(
      (await call(base, '/api/users/me', email, `guess-${i}`, freshAddress()))
        .status,
    ).toBe(401);
  }
}

/** A database that outlives a server: a DATA_DIR, or a database on TEST_DATABASE_URL. */
async function lastingDatabase(): Promise<{
  env: Record<string, string>;
  drop(): Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'known-addresses-'));
    return {
      env: { DATA_DIR: dir },
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // A copy of the run's migrated database (postgres-setup.ts) rather than migrating a new one.
  const template = migratedTemplateOf(serverUrl);
  await admin.query(
    `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`,
  );
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

describe('an account is limited across addresses, except where its owner signs in (issue 15)', () => {
  it('20 wrong passwords from 20 addresses lock the account at a new address; the owner still signs in at a known one', async () => {
    const owner = await signUp(server.url);
    const home = freshAddress();
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          owner.email,
          owner.password,
          home,
        )
      ).status,
    ).toBe(200);
    // A new password, so the next sign-in at home is checked rather than served from memory.
    expect(
      (
        await call(
          server.url,
          '/api/users/me/password',
          owner.email,
          owner.password,
          home,
          {
            method: 'PUT',
            body: {
              currentPassword: owner.password,
              newPassword: 'changed-password-2',
            },
          },
        )
      ).status,
    ).toBe(204);
    await guessFromTwentyAddresses(server.url, owner.email);
    const elsewhere = freshAddress();
    const refused = await call(
      server.url,
      '/api/users/me',
      owner.email,
      'changed-password-2',
      elsewhere,
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(
      (
        await call(
          server.url,
          '/api/users/me',
          owner.email,
          'changed-password-2',
          home,
        )
      ).status,
    ).toBe(200);
  });

  it('knows the owner’s address after a restart', async () => {
    const database = await lastingDatabase();
    try {
      const env = { TRUST_PROXY: 'true', ...database.env };
      const first = await startServer(env);
      const owner = await signUp(first.url);
      const home = freshAddress();
      try {
        expect(
          (
            await call(
              first.url,
              '/api/users/me',
              owner.email,
              owner.password,
              home,
            )
          ).status,
        ).toBe(200);
      } finally {
        await first.close();
      }
      const second = await startServer(env);
      try {
        await guessFromTwentyAddresses(second.url, owner.email);
        expect(
          (
            await call(
              second.url,
              '/api/users/me',
              owner.email,
              owner.password,
              freshAddress(),
            )
          ).status,
        ).toBe(429);
        expect(
          (
            await call(
              second.url,
              '/api/users/me',
              owner.email,
              owner.password,
              home,
            )
          ).status,
        ).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
