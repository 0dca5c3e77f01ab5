import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BackupReader,
  BackupWriter,
  DamagedBackupError,
  FORMAT,
  MAGIC,
  publish,
  TRAILER_BYTES,
  verifyBackup,
  type BackupHeader,
} from './backup-file.ts';
import { backupFileName, BACKUP_FILE, expiredBackups } from './schedule.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0))
    rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'backup-format-'));
  dirs.push(dir);
  return dir;
}

function header(rows: number[]): BackupHeader {
  return {
    format: FORMAT,
    createdAt: '2026-11-28T05:00:00.000Z',
    serverVersion: '18.4',
    migrations: [{ name: '001-init.sql', checksum: 'ab' }],
    queueSchemaVersion: 46,
    tables: rows.map((count, i) => ({
      schema: 'public',
      name: `t${i}`,
      columns: ['id', 'text'],
      rows: count,
      partitionOf: null,
    })),
    sequences: [{ schema: 'public', name: 's', value: '42' }],
  };
}

/** COPY text in awkward chunks: rows split across chunks, several rows in one. */
async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size)
    yield bytes.subarray(at, at + size);
}

const rowsOf = (table: number, count: number) =>
  Array.from({ length: count }, (_, i) => `${i}\tt${table} row\\n${i}\n`).join(
    '',
  );

async function write(path: string, counts: number[]): Promise<void> {
  const writer = await BackupWriter.create(path, header(counts));
  for (const [i, count] of counts.entries()) {
    expect(await writer.table(chunked(rowsOf(i, count), 7))).toBe(count);
  }
  await writer.finish();
}

async function readAll(path: string): Promise<string[]> {
  const backup = await verifyBackup(path);
  const reader = new BackupReader(backup);
  const tables: string[] = [];
  for (const table of backup.header.tables) {
    const parts: Buffer[] = [];
    for await (const chunk of reader.rows(table)) parts.push(chunk);
    tables.push(Buffer.concat(parts).toString());
  }
  await reader.end();
  return tables;
}

describe('the backup file', () => {
  it('starts with the magic line and a JSON header, ends with the SHA-256 line, and gives each table back its rows', async () => {
    const path = join(folder(), 'a.backup');
    await write(path, [3, 0, 1000, 1]);
    const bytes = readFileSync(path);
    expect(bytes.subarray(0, MAGIC.length).toString()).toBe(MAGIC);
    const firstLines = bytes.toString('latin1').split('\n');
    expect(JSON.parse(firstLines[1]!).tables[2].rows).toBe(1000);
    expect(bytes.subarray(-TRAILER_BYTES).toString()).toMatch(
      /^SHA256 [0-9a-f]{64}\n$/,
    );
    expect(await readAll(path)).toEqual([
      rowsOf(0, 3),
      '',
      rowsOf(2, 1000),
      rowsOf(3, 1),
    ]);
    expect((await verifyBackup(path)).header).toEqual(header([3, 0, 1000, 1]));
  });

  it('refuses a flipped byte anywhere, a truncated file, and a file that is not a backup', async () => {
    const dir = folder();
    const path = join(dir, 'a.backup');
    await write(path, [50, 50]);
    const good = readFileSync(path);
    for (const at of [
      MAGIC.length + 3,
      Math.floor(good.length / 2),
      good.length - 3,
    ]) {
      const bad = Buffer.from(good);
      bad[at] = bad[at]! ^ 0x20;
      const file = join(dir, `flipped-${at}`);
      writeFileSync(file, bad);
      await expect(verifyBackup(file)).rejects.toThrow(DamagedBackupError);
    }
    for (const length of [
      0,
      10,
      good.length - 1,
      good.length - TRAILER_BYTES,
    ]) {
      const file = join(dir, `cut-${length}`);
      writeFileSync(file, good.subarray(0, length));
      await expect(verifyBackup(file)).rejects.toThrow(/not a complete backup/);
    }
    const other = join(dir, 'other');
    writeFileSync(other, 'hello\n'.repeat(100));
    await expect(verifyBackup(other)).rejects.toThrow(/wrong first line/);
  });

  it('a writer never overwrites a file, and an aborted one publishes nothing', async () => {
    const dir = folder();
    const path = join(dir, 'a.backup');
    writeFileSync(path, 'precious');
    await expect(BackupWriter.create(path, header([1]))).rejects.toThrow(
      /EEXIST/,
    );
    expect(readFileSync(path, 'utf8')).toBe('precious');
    const temporary = join(dir, 'b.backup.partial-1');
    const writer = await BackupWriter.create(temporary, header([1]));
    await writer.table(chunked(rowsOf(0, 1), 3));
    await writer.abort();
    expect(readdirSync(dir).sort()).toEqual(['a.backup', 'b.backup.partial-1']);
    const finished = await BackupWriter.create(
      join(dir, 'c.partial'),
      header([1]),
    );
    await finished.table(chunked(rowsOf(0, 1), 3));
    await finished.finish();
    await publish(join(dir, 'c.partial'), join(dir, 'c.backup'));
    expect(await readAll(join(dir, 'c.backup'))).toEqual([rowsOf(0, 1)]);
  });
});

describe('scheduled backup files', () => {
  it('are named by their start and sort in time order; retention removes only ours beyond the newest', () => {
    const names = [
      backupFileName(new Date('2026-11-28T05:00:00.000Z')),
      backupFileName(new Date('2026-11-28T05:00:00.007Z')),
      backupFileName(new Date('2026-11-29T00:00:00.000Z')),
    ];
    expect(names[0]).toBe('console-20261128T050000000Z.backup');
    for (const name of names) expect(name).toMatch(BACKUP_FILE);
    const folderNames = [
      ...names,
      'notes.txt',
      'console-20200101T000000000Z.backup.partial-12',
      'console-20200101T000000000Z.backup.old',
    ];
    expect(expiredBackups(folderNames, 2)).toEqual([names[0]]);
    expect(expiredBackups(folderNames, 1)).toEqual([names[1], names[0]]);
    expect(expiredBackups(folderNames, 7)).toEqual([]);
  });
});
