/**
 * The PostgreSQL team store against a real PostgreSQL (test/e2e/postgres.ts starts a
 * throwaway cluster): the record's contract (contract.ts), then what only a shared database
 * has: schema versions and concurrent migration, LISTEN/NOTIFY, U+0000 in text, the
 * password never shown, and the released schema (schema/postgres.txt).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, PostgresStore, SERVICE_KEYS } from '../../../src/record/postgres.js';
import { StorageError } from '../../../src/settings/home.js';
import { havePostgres, type PgCluster, startPostgres } from '../../e2e/postgres.js';
import { waitFor } from '../../wait-for.js';
import { deliveryOf, recordContract } from './contract.js';

let cluster: PgCluster;
let n = 0;
/** A new database of the cluster: its name and URL. */
async function freshDatabase(): Promise<{ name: string; url: string }> {
  const name = `store_${++n}`;
  return { name, url: await cluster.createDatabase(name) };
}

describe.skipIf(!havePostgres())('PostgresStore', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  // A fast shutdown waits for the checkpoint of every database the suite made: on a loaded
  // machine that outlasted the 20 s default (once, in the whole suite at a load average of 12).
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  recordContract('PostgreSQL', async () => {
    const { name, url } = await freshDatabase();
    return {
      open: () => PostgresStore.open(url),
      count: async (table) => Number(await cluster.psql(`SELECT count(*) FROM econsig_${table}`, name)),
      damageFirstAnswer: async () => void (await cluster.psql(`UPDATE econsig_answers SET erros = '"not a list"' WHERE submission_id = 1`, name)),
      ageUnshown: async () => void (await cluster.psql(`UPDATE econsig_deliveries SET unshown_since = unshown_since - interval '1 hour' WHERE unshown_since IS NOT NULL`, name)),
      openBeforeServiceKeys: async (rows, onNotice) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          for (const sql of MIGRATIONS.slice(0, SERVICE_KEYS - 1)) await client.query(sql);
          // The version table as the released econsig made it.
          await client.query('CREATE TABLE econsig_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), econsig TEXT)');
          for (let v = 1; v < SERVICE_KEYS; v++) await client.query("INSERT INTO econsig_schema (version, econsig) VALUES ($1, 'released')", [v]);
          for (const [i, r] of rows.entries()) {
            const { rows: [{ id }] } = await client.query(
              'INSERT INTO econsig_submissions (ref, id_proposta, base_url, body_hash, file, profile, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id',
              [`released-${i}`, r.idProposta, r.baseUrl, 'h1', `${r.idProposta}.json`, 'default', new Date(Date.UTC(2026, 0, 1, 0, 0, i))],
            );
            // The released guard locked a row per proposal and base URL as typed: one per spelling.
            await client.query('INSERT INTO econsig_proposals (base_url, id_proposta) VALUES ($1, $2) ON CONFLICT DO NOTHING', [r.baseUrl, r.idProposta]);
            const a = r.answer;
            if (a) await client.query('INSERT INTO econsig_answers (submission_id, at, outcome, http_status, id_contrato, erros, message) VALUES ($1, $2, $3, $4, $5, $6, $7)', [id, a.at, a.outcome, a.httpStatus, a.idContrato, JSON.stringify(a.erros), a.message]);
          }
        } finally {
          await client.end();
        }
        return PostgresStore.open(url, { onNotice });
      },
      dump: () => cluster.dump(name),
      dispose: async () => undefined,
    };
  });

  describe('what only PostgreSQL has', () => {
    const stores: PostgresStore[] = [];
    const openStore = async (url: string): Promise<PostgresStore> => {
      const store = await PostgresStore.open(url);
      stores.push(store);
      return store;
    };
    afterAll(async () => {
      for (const store of stores.splice(0)) await store.close();
    });

    it('creates its schema with a version table, and opens it again without migrating', async () => {
      const { name, url } = await freshDatabase();
      await (await PostgresStore.open(url)).close();
      expect(await cluster.psql('SELECT version FROM econsig_schema ORDER BY version', name)).toBe(MIGRATIONS.map((_, i) => `${i + 1}\n`).join(''));
      await openStore(url);
      expect(await cluster.psql('SELECT count(*) FROM econsig_schema', name)).toBe(`${MIGRATIONS.length}\n`);
    });

    it('several processes opening a new database at once migrate it once', async () => {
      const { name, url } = await freshDatabase();
      expect(await Promise.all(Array.from({ length: 5 }, () => openStore(url)))).toHaveLength(5);
      expect(await cluster.psql('SELECT count(*) FROM econsig_schema', name)).toBe(`${MIGRATIONS.length}\n`);
    });

    it('refuses a schema newer than it knows, and leaves it untouched', async () => {
      const { name, url } = await freshDatabase();
      await (await PostgresStore.open(url)).close();
      await cluster.psql("INSERT INTO econsig_schema (version, econsig) VALUES (99, '9.9.9')", name);
      const error = await PostgresStore.open(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).exitCode).toBe(74);
      expect((error as StorageError).message).toContain(`schema is version 99, newer than this econsig knows (${MIGRATIONS.length})`);
      expect((error as StorageError).hint).toContain('Upgrade econsig');
      expect(await cluster.psql('SELECT max(version) FROM econsig_schema', name)).toBe('99\n');
    });

    it('a claim without its service, as an econsig older than the schema (still running) writes one, is refused', async () => {
      const { name, url } = await freshDatabase();
      await (await PostgresStore.open(url)).close();
      const insert = "INSERT INTO econsig_submissions (ref, id_proposta, base_url, body_hash, profile, sent_at) VALUES ('r', 'P1', 'http://x', 'h', 'default', now())";
      await expect(cluster.psql(insert, name)).rejects.toThrow(/null value in column "service"/);
      await expect(cluster.psql("INSERT INTO econsig_proposals (base_url, id_proposta) VALUES ('http://x', 'P1')", name)).rejects.toThrow(/base_url/);
    });

    it('a U+0000 in a field is stored as U+FFFD: PostgreSQL text cannot hold it', async () => {
      const store = await openStore((await freshDatabase()).url);
      expect(await store.recordDelivery(deliveryOf({ idContrato: 'C-\u0000-1', payload: '{"idContrato":"C-\\u0000-1"}' }))).toBe('stored');
      expect((await store.resultOf('C-\uFFFD-1'))?.outcome).toBe('approved');
    });

    it('follows results recorded by another connection, announced within milliseconds (LISTEN/NOTIFY)', async () => {
      const { url } = await freshDatabase();
      const [store, other] = [await openStore(url), await openStore(url)];
      await other.recordResult({ idContrato: 'C-old', at: new Date().toISOString(), outcome: 'approved', status: null, reason: null });
      const seen: Array<{ id: string; ms: number }> = [];
      const stop = new AbortController();
      // A poll every 10 s: only NOTIFY can bring the result within the wait below.
      await store.followResults((r) => seen.push({ id: r.idContrato, ms: Date.now() }), { signal: stop.signal, intervalMs: 10_000 });
      const sent = Date.now();
      await other.recordDelivery(deliveryOf({ idContrato: 'C-new', outcome: 'denied', status: 'REPROVADO' }));
      await expect.poll(() => seen.map((s) => s.id), { timeout: 2_000, interval: 10 }).toEqual(['C-new']);
      expect(seen[0]!.ms - sent).toBeLessThan(1_000);
      stop.abort();
    });

    it('a delivery whose write timed out behind a lock and committed later is handed to its retry (unshown), once', async () => {
      const { name, url } = await freshDatabase();
      const store = await PostgresStore.open(url, { queryTimeoutMs: 300 });
      stores.push(store);
      const locker = new pg.Client({ connectionString: url });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE econsig_deliveries IN ACCESS EXCLUSIVE MODE');
        // The statement is sent, the answer never comes: the lookup (behind the same lock) finds nothing to say.
        const error = await store.recordDelivery(deliveryOf()).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StorageError);
        await locker.query('COMMIT');
      } finally {
        await locker.end();
      }
      // The timed-out statement was still waiting at the server: it commits now, unshown.
      await waitFor(async () => (await cluster.psql('SELECT count(*) FROM econsig_deliveries WHERE unshown_since IS NOT NULL', name)).trim() === '1');
      await cluster.psql(`UPDATE econsig_deliveries SET unshown_since = unshown_since - interval '1 hour'`, name);
      const [retry, copy] = await Promise.all([store.recordDelivery(deliveryOf()), store.recordDelivery(deliveryOf())]);
      expect([retry, copy].sort()).toEqual(['duplicate', 'unshown']);
      expect(await store.recordDelivery(deliveryOf())).toBe('duplicate');
    });

    it('a wrong password: exit 74, the URL shown without any password', async () => {
      const { name, url } = await freshDatabase();
      const wrong = url.replace(encodeURIComponent(cluster.password), 'not-the-password-123');
      const error = await PostgresStore.open(wrong).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      const e = error as StorageError;
      expect(e.code).toBe('28P01');
      expect(e.message).toContain(`postgres://econsig@127.0.0.1:${cluster.port}/${name}`);
      const everything = `${e.message} ${e.hint} ${String((e.cause as Error)?.message)} ${e.stack}`;
      expect(everything).not.toContain('not-the-password-123');
      expect(everything).not.toContain(cluster.password);
    });

    it('no database there: exit 74 with ECONNREFUSED and what to do', async () => {
      const error = await PostgresStore.open('postgres://econsig:sekret-pass@127.0.0.1:1/nowhere').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).code).toBe('ECONNREFUSED');
      expect((error as StorageError).hint).toContain('is up and reachable');
      expect(JSON.stringify({ m: (error as Error).message, h: (error as StorageError).hint })).not.toContain('sekret-pass');
    });

    it('the released schema never changes: each version as PostgreSQL reports it is the committed snapshot', async () => {
      const versions: string[] = [];
      for (let v = 1; v <= MIGRATIONS.length; v++) {
        const { name, url } = await freshDatabase();
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        for (const sql of MIGRATIONS.slice(0, v)) await client.query(sql);
        await client.end();
        versions.push(`-- version ${v}\n${await describeSchema(name)}`);
      }
      // A migration that changes a released version fails here; a new version adds a section (vitest -u, deliberately).
      await expect(`${versions.join('\n\n')}\n`).toMatchFileSnapshot('schema/postgres.txt');
      // What the store itself builds is the last version (beside its version table).
      const { name, url } = await freshDatabase();
      await (await PostgresStore.open(url)).close();
      const version = (await cluster.psql('SELECT max(version) FROM econsig_schema', name)).trim();
      expect(`-- version ${version}\n${await describeSchema(name)}`).toBe(versions.at(-1));
    });
  });
});

/**
 * The record's tables (econsig_schema, the version table, aside), their columns, constraints
 * and indexes, and triggers, as PostgreSQL's catalogue reports them.
 */
async function describeSchema(database: string): Promise<string> {
  const ours = (column: string) => `${column} LIKE 'econsig\\_%' AND ${column} <> 'econsig_schema'`;
  const queries = [
    `SELECT 'table ' || table_name || ': ' || column_name || ' ' || data_type || CASE WHEN is_nullable = 'NO' THEN ' NOT NULL' ELSE '' END || coalesce(' DEFAULT ' || column_default, '')
       FROM information_schema.columns WHERE table_schema = 'public' AND ${ours('table_name')} ORDER BY table_name, ordinal_position`,
    `SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ': ' || pg_get_constraintdef(oid)
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND ${ours('conrelid::regclass::text')} ORDER BY 1`,
    `SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public' AND ${ours('tablename')} ORDER BY indexname`,
    `SELECT 'trigger ' || tgname || ': ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname`,
    `SELECT 'function ' || proname || ': ' || pg_get_function_result(oid) FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY proname`,
  ];
  let text = '';
  for (const sql of queries) text += await cluster.psql(sql, database);
  return text.trimEnd();
}
