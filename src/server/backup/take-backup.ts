import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  BackupWriter,
  discard,
  FORMAT,
  publish,
  type BackupHeader,
  type BackupTable,
} from './backup-file.ts';

/** Schemas that are PostgreSQL's own, never backed up. */
export const SYSTEM_SCHEMAS_SQL = `n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\\_%'`;

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const qualified = (schema: string, name: string) =>
  `${quoteIdent(schema)}.${quoteIdent(name)}`;

/**
 * Every table holding rows: ordinary tables and partitions (a partitioned parent holds none of
 * its own) of every schema but PostgreSQL's (ours: public; pg-boss's: pgboss), not those an
 * extension owns. Not schema_functions: a restore rebuilds the schema with the versioned
 * migrations only, so the first start must apply every function file again (migrate.ts).
 */
async function tablesOf(
  client: pg.Client,
): Promise<Omit<BackupTable, 'rows'>[]> {
  const { rows } = await client.query<{
    schema: string;
    name: string;
    columns: string[] | null;
    parent: string | null;
    bound: string | null;
  }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                AND a.attgenerated = '') AS columns,
            (SELECT quote_ident(pn.nspname) || '.' || quote_ident(p.relname)
               FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent
               JOIN pg_namespace pn ON pn.oid = p.relnamespace
              WHERE i.inhrelid = c.oid AND c.relispartition) AS parent,
            CASE WHEN c.relispartition THEN pg_get_expr(c.relpartbound, c.oid) END AS bound
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND ${SYSTEM_SCHEMAS_SQL}
        AND NOT (n.nspname = 'public' AND c.relname = 'schema_functions')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
                         WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                           AND d.deptype = 'e')
      ORDER BY n.nspname, c.relname`,
  );
  return rows.map((row) => ({
    schema: row.schema,
    name: row.name,
    columns: row.columns ?? [],
    partitionOf:
      row.parent && row.bound ? { parent: row.parent, bound: row.bound } : null,
  }));
}

async function exists(client: pg.Client, relation: string): Promise<boolean> {
  const { rows } = await client.query<{ found: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS found',
    [relation],
  );
  return rows[0]?.found === true;
}

/** Tables in an order where each comes after those its foreign keys point to, so a restore that
 * loads them in the file's order finds every referenced row already there (foreign keys in a
 * cycle would not be: the schema has none). */
async function loadOrder(
  client: pg.Client,
  names: string[],
): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `SELECT format('"%s"."%s"', replace(cn.nspname, '"', '""'), replace(c.relname, '"', '""'))
              AS child,
            format('"%s"."%s"', replace(pn.nspname, '"', '""'), replace(p.relname, '"', '""'))
              AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
       JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = p.relnamespace
      WHERE k.contype = 'f'`,
  );
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of rows) {
    if (child === parent) continue; // checked after the whole COPY: order does not matter
    if (!parents.has(child)) parents.set(child, new Set());
    parents.get(child)!.add(parent);
  }
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const wanted = new Set(names);
  const visit = (name: string) => {
    if (state.get(name)) return; // done, or a cycle: left to where it stands
    state.set(name, 'visiting');
    for (const parent of parents.get(name) ?? []) {
      if (wanted.has(parent)) visit(parent);
    }
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of names) visit(name);
  return order;
}

export interface TakenBackup {
  header: BackupHeader;
  bytes: number;
  startedAt: Date;
}

/**
 * Writes a backup of the whole database of `client` to `file` (which must not exist): one
 * REPEATABLE READ READ ONLY transaction, so every table is read at the same instant (every
 * transaction committed before it began is in it, none that committed later), while the server
 * keeps writing (readers and writers do not block each other in PostgreSQL). The file is
 * written under a temporary name, made durable and renamed: a killed backup leaves no file that
 * looks complete.
 */
export async function takeBackup(
  client: pg.Client,
  file: string,
): Promise<TakenBackup> {
  const temporary = `${file}.partial-${process.pid}`;
  const startedAt = new Date();
  let writer: BackupWriter | undefined;
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    // A role's own limits must not cut a long COPY short.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    const [{ rows: version }, tables] = await Promise.all([
      client.query<{ server_version: string }>('SHOW server_version'),
      tablesOf(client),
    ]);
    const migrations = (await exists(client, 'public.schema_migrations'))
      ? (
          await client.query<{ name: string; checksum: string | null }>(
            'SELECT name, checksum FROM schema_migrations ORDER BY name',
          )
        ).rows
      : [];
    const queueSchemaVersion = (await exists(client, 'pgboss.version'))
      ? Number(
          (
            await client.query<{ version: string }>(
              'SELECT version FROM pgboss.version',
            )
          ).rows[0]?.version,
        )
      : null;
    const { rows: sequences } = await client.query<{
      schema: string;
      name: string;
      value: string | null;
    }>(
      `SELECT schemaname AS schema, sequencename AS name, last_value::text AS value
         FROM pg_sequences n WHERE ${SYSTEM_SCHEMAS_SQL.replaceAll('n.nspname', 'n.schemaname')}
        ORDER BY 1, 2`,
    );
    // The row counts go in the header, first in the file: counted in the same snapshot.
    const byName = new Map(tables.map((t) => [qualified(t.schema, t.name), t]));
    const order = await loadOrder(client, [...byName.keys()]);
    const counted: BackupTable[] = [];
    for (const table of order.map((name) => byName.get(name)!)) {
      const { rows } = await client.query<{ count: string }>(
        `SELECT count(*) AS count FROM ONLY ${qualified(table.schema, table.name)}`,
      );
      counted.push({ ...table, rows: Number(rows[0]?.count ?? 0) });
    }
    const header: BackupHeader = {
      format: FORMAT,
      createdAt: startedAt.toISOString(),
      serverVersion: version[0]?.server_version ?? 'unknown',
      migrations,
      queueSchemaVersion,
      tables: counted,
      sequences,
    };
    writer = await BackupWriter.create(temporary, header);
    for (const table of counted) {
      if (table.rows === 0) continue;
      const columns = table.columns.map(quoteIdent).join(', ');
      const stream = client.query(
        copyTo(
          `COPY ${qualified(table.schema, table.name)} (${columns}) TO STDOUT`,
        ),
      );
      const written = await writer.table(stream);
      if (written !== table.rows) {
        throw new Error(
          `${table.schema}.${table.name}: ${written} rows copied, ${table.rows} counted`,
        );
      }
    }
    await client.query('COMMIT');
    const bytes = await writer.finish();
    writer = undefined;
    await publish(temporary, file);
    return { header, bytes, startedAt };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    await writer?.abort();
    await discard(temporary);
    throw error;
  }
}
