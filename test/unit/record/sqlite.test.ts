/**
 * The SQLite store: the record's contract (contract.ts), then what only a file in
 * ECONSIG_HOME has: its modes, one turn's writes in one transaction, a file that is not a
 * database, and the released schema (schema/sqlite.txt).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SERVICE_KEYS, SqliteStore } from '../../../src/record/sqlite.js';
import { StorageError } from '../../../src/settings/home.js';
import { claimOf, deliveryOf, recordContract } from './contract.js';

recordContract('SQLite', async () => {
  const home = mkdtempSync(join(tmpdir(), 'econsig-store-'));
  const db = (run: (db: DatabaseSync) => unknown) => {
    const connection = new DatabaseSync(join(home, 'econsig.db'));
    try {
      return run(connection);
    } finally {
      connection.close();
    }
  };
  return {
    open: () => SqliteStore.open(home),
    count: async (table) => Number(db((c) => (c.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n)),
    damageFirstAnswer: async () => void db((c) => c.exec("UPDATE answers SET erros = '{not json' WHERE submission_id = 1")),
    ageUnshown: async () => void db((c) => c.exec("UPDATE deliveries SET unshown_since = strftime('%Y-%m-%dT%H:%M:%fZ', unshown_since, '-1 hour') WHERE unshown_since IS NOT NULL")),
    openBeforeServiceKeys: async (rows, onNotice) => {
      db((c) => {
        for (const sql of MIGRATIONS.slice(0, SERVICE_KEYS - 1)) c.exec(sql);
        c.exec(`PRAGMA user_version = ${SERVICE_KEYS - 1}`);
        const submission = c.prepare('INSERT INTO submissions (ref, id_proposta, base_url, body_hash, file, profile, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id');
        const answer = c.prepare('INSERT INTO answers (submission_id, at, outcome, http_status, id_contrato, erros, message) VALUES (?, ?, ?, ?, ?, ?, ?)');
        rows.forEach((r, i) => {
          const { id } = submission.get(`released-${i}`, r.idProposta, r.baseUrl, 'h1', `${r.idProposta}.json`, 'default', new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()) as { id: number };
          const a = r.answer;
          if (a) answer.run(id, a.at, a.outcome, a.httpStatus, a.idContrato, JSON.stringify(a.erros), a.message);
        });
      });
      return SqliteStore.open(home, { onNotice });
    },
    dump: async () =>
      String(
        db((c) => {
          const tables = c.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as Array<{ name: string }>;
          return tables.map(({ name }) => `${name}: ${JSON.stringify(c.prepare(`SELECT * FROM "${name}"`).all())}`).join('\n');
        }),
      ),
    dispose: async () => rmSync(home, { recursive: true, force: true }),
  };
});

describe('SqliteStore', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'econsig-store-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('creates econsig.db 0600 in a 0700 folder, and opens it again', async () => {
    const nested = join(home, 'nested');
    await (await SqliteStore.open(nested)).close();
    expect(statSync(nested).mode & 0o777).toBe(0o700);
    expect(statSync(join(nested, 'econsig.db')).mode & 0o777).toBe(0o600);
    await (await SqliteStore.open(nested)).close();
  });

  it('a claim without its service, as an econsig older than the schema (still running) writes one, is refused', async () => {
    await (await SqliteStore.open(home)).close();
    const db = new DatabaseSync(join(home, 'econsig.db'));
    try {
      expect(() => db.exec("INSERT INTO submissions (ref, id_proposta, base_url, body_hash, profile, sent_at) VALUES ('r', 'P1', 'http://x', 'h', 'default', 'now')")).toThrow(/without its service/);
    } finally {
      db.close();
    }
  });

  it('refuses a store written by a newer econsig (exit 74), and leaves it untouched: how every later build meets this one', async () => {
    await (await SqliteStore.open(home)).close();
    const db = new DatabaseSync(join(home, 'econsig.db'));
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    const error = await SqliteStore.open(home).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).exitCode).toBe(74);
    expect((error as StorageError).code).toBe('NEWER');
    const after = new DatabaseSync(join(home, 'econsig.db'));
    expect((after.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(MIGRATIONS.length + 1);
    after.close();
  });

  it('claims made in the same turn share a transaction, in the order asked', async () => {
    const store = await SqliteStore.open(home);
    const all = await Promise.all([store.claim(claimOf('P1')), store.claim(claimOf('P1')), store.claim(claimOf('P2'))]);
    expect(all.map((c) => c.kind)).toEqual(['claimed', 'held', 'claimed']);
    await store.close();
  });

  it('a folder where the database should be is a storage error naming the path (exit 74)', async () => {
    mkdirSync(join(home, 'econsig.db'));
    const error = await SqliteStore.open(home).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).exitCode).toBe(74);
    expect((error as StorageError).code).toBe('EISDIR');
    expect((error as StorageError).message).toContain(join(home, 'econsig.db'));
  });

  it('a file that is not a database is reported as corrupt (exit 74)', async () => {
    writeFileSync(join(home, 'econsig.db'), 'this is not sqlite, just text long enough to have a header'.repeat(20));
    const error = await SqliteStore.open(home).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('CORRUPT');
  });

  it('a store of version 1 keeps its deliveries through the rebuild of version 2, and their bodies can then be dropped', async () => {
    const db = new DatabaseSync(join(home, 'econsig.db'));
    db.exec(MIGRATIONS[0]!);
    db.exec('PRAGMA user_version = 1');
    db.prepare(`INSERT INTO deliveries (received_at, webhook_id, body_hash, id_contrato, id_proposta, status, outcome, reason, verified, payload)
      VALUES ('2025-01-01T00:00:00.000Z', 'w1', 'b1', 'C-9', 'P9', 'APROVADO', 'approved', NULL, 1, '{"chavePix":"52998224725"}')`).run();
    db.close();
    const store = await SqliteStore.open(home);
    expect(await store.recordDelivery(deliveryOf())).toBe('duplicate');
    expect(await store.dropBodies('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z')).toBe(1);
    await store.close();
    const after = new DatabaseSync(join(home, 'econsig.db'));
    expect(after.prepare('SELECT webhook_id, verified, payload, payload_dropped_at FROM deliveries').all()).toEqual([{ webhook_id: 'w1', verified: 1, payload: null, payload_dropped_at: '2026-01-02T00:00:00.000Z' }]);
    after.close();
  });

  it('the released schema never changes: each version as SQLite reports it is the committed snapshot', async () => {
    const versions = MIGRATIONS.map((_, n) => {
      const db = new DatabaseSync(':memory:');
      for (const sql of MIGRATIONS.slice(0, n + 1)) db.exec(sql);
      const schema = describeSchema(db);
      db.close();
      return `-- version ${n + 1}\n${schema}`;
    });
    // A migration that changes a released version fails here; a new version adds a section (vitest -u, deliberately).
    await expect(`${versions.join('\n\n')}\n`).toMatchFileSnapshot('schema/sqlite.txt');
    // What the store itself builds is the last version.
    await (await SqliteStore.open(home)).close();
    const db = new DatabaseSync(join(home, 'econsig.db'));
    expect(`-- version ${Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version)}\n${describeSchema(db)}`).toBe(versions.at(-1));
    db.close();
  });
});

/** Tables, their columns, keys, indexes and triggers, as SQLite reports them (PRAGMA table_info, foreign_key_list, index_list, index_info; sqlite_schema). */
function describeSchema(db: DatabaseSync): string {
  type Row = Record<string, string | number | null>;
  const rows = (sql: string) => db.prepare(sql).all() as Row[];
  const lines: string[] = [];
  for (const { name } of rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")) {
    lines.push(`table ${name}`);
    for (const c of rows(`PRAGMA table_info(${name})`)) {
      lines.push(`  ${c.name} ${c.type}${c.notnull ? ' NOT NULL' : ''}${c.pk ? ' PRIMARY KEY' : ''}${c.dflt_value !== null ? ` DEFAULT ${c.dflt_value}` : ''}`);
    }
    for (const key of rows(`PRAGMA foreign_key_list(${name})`)) lines.push(`  foreign key (${key.from}) REFERENCES ${key.table} (${key.to})`);
    for (const index of rows(`PRAGMA index_list(${name})`).sort((a, b) => String(a.name).localeCompare(String(b.name)))) {
      const columns = rows(`PRAGMA index_info(${index.name})`).map((c) => c.name);
      lines.push(`  index ${index.name}${index.unique ? ' UNIQUE' : ''} (${columns.join(', ')})`);
    }
    for (const trigger of rows(`SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = '${name}' ORDER BY name`)) {
      lines.push(`  trigger ${trigger.name}: ${String(trigger.sql).replace(/\s+/g, ' ')}`);
    }
  }
  return lines.join('\n');
}
