import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hashPassword,
  hashSecret,
} from '../../../src/server/auth/passwords.ts';
import { openPglite } from '../../../src/server/db/client.ts';
import { migrate } from '../../../src/server/db/migrate.ts';
import { clientHttp, userHttp } from '../../support/seed.ts';
import {
  spawnServer,
  stopServer,
  tempDataDir,
  type SpawnedServer,
} from '../../support/spawn-server.ts';

const MIGRATIONS = fileURLToPath(
  new URL('../../../migrations/', import.meta.url),
);
/** The schema the data folder was written by: an install of before batches' pacing (021). */
const OLD_SCHEMA = '020';

const user = {
  id: '7f2c1f4e-3a43-4a53-9a51-4d7e5a2b0001',
  email: 'old-customer@example.com',
  password: 'password-of-020',
};
const client = {
  id: '7f2c1f4e-3a43-4a53-9a51-4d7e5a2b0002',
  secret: 'secret-of-a-client-made-at-020',
};
const delivered = '7f2c1f4e-3a43-4a53-9a51-4d7e5a2b0003';

/**
 * A DATA_DIR written at schema 020: migrated by 001…020 only (their function bodies of the
 * time, no functions/ folder), then rows as the server of that time wrote them, in the columns
 * of that time: a user with roles, a client with a price limit, its balance with a free credit
 * and the charge of one delivered message, the message and its attempt.
 */
async function dataDirAtSchema020(): Promise<string> {
  const oldMigrations = mkdtempSync(join(tmpdir(), 'console-migrations-020-'));
  for (const name of readdirSync(MIGRATIONS)) {
    if (name.endsWith('.sql') && name.slice(0, 3) <= OLD_SCHEMA) {
      cpSync(join(MIGRATIONS, name), join(oldMigrations, name));
    }
  }
  const dataDir = tempDataDir('upgrade-from-020');
  const db = await openPglite(join(dataDir, 'pgdata'));
  try {
    const applied = await migrate(db, pathToFileURL(`${oldMigrations}/`));
    expect(applied.at(-1)).toBe('020-batches.sql');
    await db.query(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, organization)
       VALUES ($1, $2, $3, 'Old', 'Customer', 'Before 021')`,
      [user.id, user.email, await hashPassword(user.password)],
    );
    await db.query(
      `INSERT INTO user_roles (user_id, role)
       SELECT $1, r FROM unnest($2::text[]) AS r`,
      [
        user.id,
        // What registration granted then, and does now.
        ['ROLE_SMS_CREATE'],
      ],
    );
    await db.query(
      `INSERT INTO clients (id, user_id, name, secret_hash, allowed_prefixes)
       VALUES ($1, $2, 'Shop of 020', $3, ARRAY['44'])`,
      [client.id, user.id, hashSecret(client.secret)],
    );
    await db.query(
      `INSERT INTO balances (id, client_id, currency, amount) VALUES ($1, $1, 'EUR', 9.95)`,
      [client.id],
    );
    await db.query(
      `INSERT INTO messages (id, client_id, user_id, sender, recipient, body, state, encoding,
                             segments, price, currency, delivery_method, simulated,
                             price_per_segment, date_created, date_updated)
       VALUES ($1, $2, $3, 'Shop', '447700900123', 'Sent at 020', 'DELIVERED', 'GSM-7', 1,
               0.05, 'EUR', 'MELROSE_SMPP', true, 0.05, now() - interval '1 day', now() - interval '1 day')`,
      [delivered, client.id, user.id],
    );
    await db.query(
      `INSERT INTO message_attempts (message_id, method, state, parts, simulated)
       VALUES ($1, 'MELROSE_SMPP', 'DELIVERED', 1, true)`,
      [delivered],
    );
    await db.query(
      `INSERT INTO balance_ledger (balance_id, client_id, amount, balance_after, reason,
                                   actor_user_id, message_id, price_per_segment, date_created)
       VALUES ($1, $1, 10, 10, 'FREE_CREDIT', $2, NULL, NULL, now() - interval '2 days'),
              ($1, $1, -0.05, 9.95, 'SMS', NULL, $3, 0.05, now() - interval '1 day')`,
      [client.id, user.id, delivered],
    );
  } finally {
    await db.close();
    rmSync(oldMigrations, { recursive: true, force: true });
  }
  return dataDir;
}

describe('upgrading a data folder written by an earlier schema', () => {
  let dataDir: string;
  let server: SpawnedServer;

  beforeAll(async () => {
    dataDir = await dataDirAtSchema020();
    server = await spawnServer({ DATA_DIR: dataDir });
  }, 90_000);
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  it("migrates it at start and the API reads the earlier schema's data", async () => {
    const http = userHttp(server.url, user);
    const clients = await http.get('/api/clients');
    expect(clients.status).toBe(200);
    expect(JSON.stringify(clients.body)).toContain('Shop of 020');

    const message = await http.get(
      `/api/clients/${client.id}/messages/${delivered}`,
    );
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({
      id: delivered,
      state: 'DELIVERED',
      recipient: '447700900123',
      body: 'Sent at 020',
    });

    const balance = await http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({ amount: 9.95, currency: 'EUR' });

    const ledger = await http.get(
      `/api/clients/${client.id}/balances/default/ledger`,
    );
    expect(ledger.status).toBe(200);
    expect(JSON.stringify(ledger.body)).toMatch(
      /FREE_CREDIT[\s\S]*SMS|SMS[\s\S]*FREE_CREDIT/,
    );
  });

  it("sends through today's functions on the earlier data: priced, debited, logged", async () => {
    const api = clientHttp(server.url, client);
    const sent = await api.post(`/api/clients/${client.id}/messages/sms`, {
      sender: 'Shop',
      recipient: '447700900124',
      body: 'Sent after the upgrade',
    });
    expect(sent.status).toBe(201);
    // The client's allowed prefixes of 020 still hold.
    const refused = await api.post(`/api/clients/${client.id}/messages/sms`, {
      sender: 'Shop',
      recipient: '33612345678',
      body: 'Outside the allowed prefixes',
    });
    expect(refused.status).toBe(403);

    const http = userHttp(server.url, user);
    const balance = await http.get(
      `/api/clients/${client.id}/balances/default`,
    );
    expect(balance.body.amount).toBeLessThan(9.95);
    const log = await http.get(`/api/clients/${client.id}/messages`);
    expect(JSON.stringify(log.body)).toContain('Sent after the upgrade');
    expect(JSON.stringify(log.body)).toContain('Sent at 020');
  });

  it('records every migration of this release and the current function files', async () => {
    await stopServer(server);
    const db = await openPglite(join(dataDir, 'pgdata'));
    try {
      const versioned = readdirSync(MIGRATIONS).filter((n) =>
        n.endsWith('.sql'),
      );
      const recorded = await db.query<{ name: string }>(
        'SELECT name FROM schema_migrations ORDER BY name',
      );
      expect(recorded.map((r) => r.name)).toEqual(versioned.sort());
      const functions = readdirSync(join(MIGRATIONS, 'functions')).filter((n) =>
        n.endsWith('.sql'),
      );
      const applied = await db.query<{ name: string }>(
        'SELECT name FROM schema_functions ORDER BY name',
      );
      expect(applied.map((r) => r.name)).toEqual(functions.sort());
      // 014's backfill and 021's columns on the rows written at 020.
      const [row] = await db.query<{
        price_per_segment: string;
        released_at: null;
      }>('SELECT price_per_segment, released_at FROM messages WHERE id = $1', [
        delivered,
      ]);
      expect(row).toEqual({ price_per_segment: '0.050000', released_at: null });
    } finally {
      await db.close();
    }
  });
});
