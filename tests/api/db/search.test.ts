// @also-on-pglite: pg_trgm is PGlite's own build of the extension, loaded at open.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, type HttpClient } from '../../support/http.ts';
import { adminHttp, createClient, registerUser } from '../../support/seed.ts';
import { startServer, type TestServer } from '../../support/start-server.ts';

let server: TestServer;
let admin: HttpClient;
beforeAll(async () => {
  server = await startServer();
  admin = adminHttp(server.url);
});
afterAll(async () => server.close());

const idsOf = (list: { id: string }[]) => list.map((item) => item.id);
const tag = () => randomBytes(4).toString('hex');

/** Registers a user with the given names, through the public call. */
async function person(fields: {
  email: string;
  firstName: string;
  lastName: string;
  organization: string;
}) {
  const answer = await httpClient(server.url).post('/api/register', {
    ...fields,
    password: 'password-123',
  });
  expect(answer.status).toBe(201);
  return answer.body as { id: string };
}

describe('GET /api/admin/users?q=', () => {
  it('finds a substring of the e-mail, a name, the full name or the organization, in any case', async () => {
    const t = tag();
    const grace = await person({
      email: `grace.hopper.${t}@navy.example`,
      firstName: 'Grace',
      lastName: `Hopper${t}`,
      organization: `Cobol Works ${t}`,
    });
    const alan = await person({
      email: `alan-${t}@example.test`,
      firstName: `Alan${t}`,
      lastName: 'Turing',
      organization: 'Bletchley',
    });
    const search = async (q: string) => {
      const answer = await admin.get(
        `/api/admin/users?q=${encodeURIComponent(q)}`,
      );
      expect(answer.status).toBe(200);
      return idsOf(answer.body.users);
    };
    expect(await search(`HOPPER.${t}@NAVY`)).toEqual([grace.id]);
    expect(await search(`hopper${t}`)).toEqual([grace.id]);
    expect(await search(`Grace Hopper${t}`)).toEqual([grace.id]);
    expect(await search(`cobol works ${t}`)).toEqual([grace.id]);
    expect(await search(`alan${t}`)).toEqual([alan.id]);
    // Both match t: newest first.
    expect(await search(t)).toEqual([alan.id, grace.id]);
    expect(await search(`nobody-${t}`)).toEqual([]);
    // A match never spans two fields (e-mail's end and first name's start).
    expect(await search(`navy.exampleGrace`)).toEqual([]);
  });

  it('takes % and _ literally, and pages through the matches', async () => {
    const t = tag();
    const percent = await person({
      email: `p-${t}@example.test`,
      firstName: 'Pct',
      lastName: 'User',
      organization: `100% ${t}`,
    });
    await person({
      email: `q-${t}@example.test`,
      firstName: 'Other',
      lastName: 'User',
      organization: `100 x ${t}`,
    });
    expect(
      idsOf(
        (await admin.get(`/api/admin/users?q=${encodeURIComponent('100%')}`))
          .body.users,
      ),
    ).toEqual([percent.id]);
    expect(
      (await admin.get(`/api/admin/users?q=${encodeURIComponent('q_')}`)).body
        .total,
    ).toBe(0);
    const page = await admin.get(`/api/admin/users?q=${t}&count=1&offset=1`);
    expect(page.body).toMatchObject({ total: 2, count: 1, offset: 1 });
    expect(idsOf(page.body.users)).toEqual([percent.id]);
  });

  it('lists every user newest first when q is blank', async () => {
    const first = await registerUser(server.url);
    const second = await registerUser(server.url);
    for (const q of ['', '%20%20']) {
      const answer = await admin.get(`/api/admin/users?q=${q}&count=2`);
      expect(idsOf(answer.body.users)).toEqual([second.user.id, first.user.id]);
    }
  });

  it('refuses a search text over 100 characters or with control characters (400)', async () => {
    const long = await admin.get(`/api/admin/users?q=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/Search text is too long/);
    const control = await admin.get('/api/admin/users?q=a%1Fb');
    expect(control.status).toBe(400);
    expect(control.body.message).toMatch(/control characters/);
  });
});

describe('GET /api/admin/clients?q=', () => {
  it('finds a substring of the name in any case, or the exact id, newest first', async () => {
    const t = tag();
    const { http } = await registerUser(server.url);
    const shop = await createClient(http, `Corner Shop ${t}`);
    const bakery = await createClient(http, `Bakery ${t}`);
    const search = async (q: string) =>
      idsOf(
        (await admin.get(`/api/admin/clients?q=${encodeURIComponent(q)}`)).body
          .clients,
      );
    expect(await search(`corner SHOP ${t}`)).toEqual([shop.id]);
    expect(await search(t)).toEqual([bakery.id, shop.id]);
    expect(await search(bakery.id)).toEqual([bakery.id]);
    expect(await search(bakery.id.toUpperCase())).toEqual([bakery.id]);
    expect(await search(bakery.id.slice(0, 8))).toEqual([]);
  });

  it('combines q with userId: both must hold', async () => {
    const t = tag();
    const a = await registerUser(server.url);
    const b = await registerUser(server.url);
    const a1 = await createClient(a.http, `Alpha ${t}`);
    await createClient(b.http, `Alpha ${t}`);
    const a2 = await createClient(a.http, `Beta ${t}`);
    const of = async (query: string) =>
      (await admin.get(`/api/admin/clients?${query}`)).body;
    expect(idsOf((await of(`userId=${a.user.id}&q=alpha`)).clients)).toEqual([
      a1.id,
    ]);
    expect((await of(`q=alpha ${t}`)).total).toBe(2);
    expect(idsOf((await of(`userId=${a.user.id}`)).clients)).toEqual([
      a2.id,
      a1.id,
    ]);
  });

  it('keeps the whole list newest first (ties by id)', async () => {
    const { http } = await registerUser(server.url);
    const older = await createClient(http, 'Older');
    const newer = await createClient(http, 'Newer');
    const top = (await admin.get('/api/admin/clients?count=2')).body.clients;
    expect(idsOf(top)).toEqual([newer.id, older.id]);
  });
});
