/**
 * The backup file (`npm run backup`, scheduled backups):
 *
 *   MESSAGING-CONSOLE-BACKUP\n        magic line
 *   {"format":1,...}\n                 header: one JSON line (BackupHeader), readable with `head -2`
 *   <gzip>                             every table's rows in PostgreSQL's COPY text format, the
 *                                      tables one after another in the header's order
 *   SHA256 <64 hex>\n                  SHA-256 of every byte before this line
 *
 * COPY's text format ends each row with exactly one newline (a newline inside a value is written
 * `\n`), so the header's row counts split the stream back into tables. A restore checks the
 * trailer over the whole file before it writes anything: a truncated file or a flipped byte is
 * refused whole.
 */
import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createGunzip, createGzip } from 'node:zlib';
import { z } from 'zod';

export const MAGIC = 'MESSAGING-CONSOLE-BACKUP\n';
export const FORMAT = 1;
const TRAILER_PREFIX = 'SHA256 ';
export const TRAILER_BYTES = TRAILER_PREFIX.length + 64 + 1;
/** The header is a few kB (one entry per table); a longer first line is not ours. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

const TableSchema = z.object({
  schema: z.string().min(1),
  name: z.string().min(1),
  /** Stored columns in order (generated ones are computed again on restore). */
  columns: z.array(z.string().min(1)),
  rows: z.number().int().min(0),
  /** A partition: its parent and bound, so a restore can create one the schema did not. */
  partitionOf: z.object({ parent: z.string(), bound: z.string() }).nullable(),
});

export const BackupHeaderSchema = z.object({
  format: z.literal(FORMAT),
  createdAt: z.iso.datetime(),
  /** `SHOW server_version` of the source. */
  serverVersion: z.string(),
  /** schema_migrations of the source: what a restore must apply before loading the rows. */
  migrations: z.array(
    z.object({ name: z.string(), checksum: z.string().nullable() }),
  ),
  /** pg-boss's schema version (pgboss.version), null without a queue. */
  queueSchemaVersion: z.number().int().nullable(),
  tables: z.array(TableSchema),
  sequences: z.array(
    z.object({
      schema: z.string(),
      name: z.string(),
      value: z.string().nullable(),
    }),
  ),
});

export type BackupHeader = z.infer<typeof BackupHeaderSchema>;
export type BackupTable = z.infer<typeof TableSchema>;

/** A file that is not a whole, unchanged backup: nothing was written anywhere. */
export class DamagedBackupError extends Error {
  constructor(file: string, why: string) {
    super(`${file} is not a complete backup (${why}); nothing was restored`);
    this.name = 'DamagedBackupError';
  }
}

/** Writes a backup file: header, then each table's COPY text, then `finish()` (or `abort()`). */
export class BackupWriter {
  readonly #file: FileHandle;
  readonly #hash: Hash;
  readonly #gzip = createGzip({ level: 1 });
  readonly #sink: Promise<void>;
  #bytes = 0;

  private constructor(file: FileHandle, hash: Hash) {
    this.#file = file;
    this.#hash = hash;
    // The compressed bytes go to the file as they come: gzip waits while the disk is behind.
    this.#sink = (async () => {
      for await (const chunk of this.#gzip as AsyncIterable<Buffer>) {
        await this.#write(chunk);
      }
    })();
    this.#sink.catch((error: Error) => this.#gzip.destroy(error));
  }

  /** Opens `path` (which must not exist) and writes the magic line and `header`. */
  static async create(
    path: string,
    header: BackupHeader,
  ): Promise<BackupWriter> {
    const file = await open(path, 'wx', 0o600);
    const writer = new BackupWriter(file, createHash('sha256'));
    await writer.#write(Buffer.from(MAGIC + JSON.stringify(header) + '\n'));
    return writer;
  }

  async #write(chunk: Buffer, hashed = true): Promise<void> {
    if (hashed) this.#hash.update(chunk);
    let done = 0;
    while (done < chunk.length) {
      const { bytesWritten } = await this.#file.write(chunk, done);
      done += bytesWritten;
    }
    this.#bytes += chunk.length;
  }

  /** Adds one table's rows (COPY text); returns how many rows it held. */
  async table(rows: AsyncIterable<Buffer>): Promise<number> {
    let count = 0;
    for await (const chunk of rows) {
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1))
        count++;
      if (!this.#gzip.write(chunk)) await once(this.#gzip, 'drain');
    }
    return count;
  }

  /** Ends the data, writes the checksum and makes the file durable; returns its size. */
  async finish(): Promise<number> {
    this.#gzip.end();
    await this.#sink;
    const digest = this.#hash.digest('hex');
    await this.#write(Buffer.from(`${TRAILER_PREFIX}${digest}\n`), false);
    await this.#file.sync();
    await this.#file.close();
    return this.#bytes;
  }

  async abort(): Promise<void> {
    this.#gzip.destroy();
    await this.#sink.catch(() => undefined);
    await this.#file.close().catch(() => undefined);
  }
}

/** Renames a finished temporary file into place and makes the rename durable (fsync of its folder). */
export async function publish(temporary: string, final: string): Promise<void> {
  await rename(temporary, final);
  const folder = await open(dirname(final), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/** Removes a temporary file left by a failed write. */
export async function discard(temporary: string): Promise<void> {
  await rm(temporary, { force: true });
}

export interface VerifiedBackup {
  file: string;
  header: BackupHeader;
  /** Byte range of the gzip data: [dataStart, dataEnd). */
  dataStart: number;
  dataEnd: number;
}

/** Reads the whole file once and checks its checksum and header; throws DamagedBackupError. */
export async function verifyBackup(file: string): Promise<VerifiedBackup> {
  const handle = await open(file, 'r');
  let size: number;
  let head: Buffer;
  let trailer: Buffer;
  try {
    size = (await handle.stat()).size;
    if (size < MAGIC.length + TRAILER_BYTES) {
      throw new DamagedBackupError(file, `only ${size} bytes`);
    }
    head = Buffer.alloc(Math.min(size - TRAILER_BYTES, MAX_HEADER_BYTES));
    await handle.read(head, 0, head.length, 0);
    trailer = Buffer.alloc(TRAILER_BYTES);
    await handle.read(trailer, 0, TRAILER_BYTES, size - TRAILER_BYTES);
  } finally {
    await handle.close();
  }
  if (head.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) {
    throw new DamagedBackupError(
      file,
      'not a backup of this console: wrong first line',
    );
  }
  const text = trailer.toString('latin1');
  const match = /^SHA256 ([0-9a-f]{64})\n$/.exec(text);
  if (!match)
    throw new DamagedBackupError(file, 'no checksum at its end: truncated?');
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, {
    end: size - TRAILER_BYTES - 1,
  })) {
    hash.update(chunk as Buffer);
  }
  if (hash.digest('hex') !== match[1]) {
    throw new DamagedBackupError(
      file,
      'checksum mismatch: the file was changed or damaged',
    );
  }
  const headerEnd = head.indexOf(10, MAGIC.length);
  if (headerEnd < 0) throw new DamagedBackupError(file, 'no header line');
  let header: BackupHeader;
  try {
    const parsed = BackupHeaderSchema.safeParse(
      JSON.parse(head.subarray(MAGIC.length, headerEnd).toString('utf8')),
    );
    if (!parsed.success) {
      throw new Error(parsed.error.issues[0]?.message ?? 'invalid header');
    }
    header = parsed.data;
  } catch (error) {
    throw new DamagedBackupError(
      file,
      `unreadable header (format ${FORMAT} expected): ${(error as Error).message}`,
    );
  }
  return {
    file,
    header,
    dataStart: headerEnd + 1,
    dataEnd: size - TRAILER_BYTES,
  };
}

/**
 * The rows of a verified backup, table by table in the header's order: `next(table)` yields that
 * table's COPY text, exactly its row count; `end()` checks that nothing is left over.
 */
export class BackupReader {
  readonly #source: AsyncIterator<Buffer>;
  readonly #file: string;
  #pending: Buffer | null = null;

  constructor(backup: VerifiedBackup) {
    const gunzip = createGunzip();
    createReadStream(backup.file, {
      start: backup.dataStart,
      end: backup.dataEnd - 1,
    })
      .on('error', (error) => gunzip.destroy(error))
      .pipe(gunzip);
    this.#source = (gunzip as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    this.#file = backup.file;
  }

  async #next(): Promise<Buffer | null> {
    if (this.#pending) {
      const chunk = this.#pending;
      this.#pending = null;
      return chunk;
    }
    const { value, done } = await this.#source.next();
    return done ? null : value;
  }

  async *rows(table: BackupTable): AsyncGenerator<Buffer> {
    let left = table.rows;
    while (left > 0) {
      const chunk = await this.#next();
      if (!chunk) {
        throw new DamagedBackupError(
          this.#file,
          `the data ends inside ${table.schema}.${table.name}`,
        );
      }
      let cut = 0;
      while (left > 0) {
        const at = chunk.indexOf(10, cut);
        if (at < 0) break;
        cut = at + 1;
        left--;
      }
      if (left > 0) {
        yield chunk;
      } else {
        if (cut < chunk.length) this.#pending = chunk.subarray(cut);
        yield chunk.subarray(0, cut);
      }
    }
  }

  async end(): Promise<void> {
    for (let chunk = await this.#next(); chunk; chunk = await this.#next()) {
      if (chunk.length > 0) {
        throw new DamagedBackupError(
          this.#file,
          'more rows than its header counts',
        );
      }
    }
  }
}
