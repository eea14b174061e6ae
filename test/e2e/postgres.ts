/**
 * A real, throwaway PostgreSQL for tests and benches (issue 15: no mock, no in-memory
 * stand-in). `startPostgres()` runs initdb into a temp folder and starts `postgres` on a
 * free 127.0.0.1 port with a socket folder of its own; `stop()` shuts it down and removes
 * the folder, `restart()` stops and starts the same cluster (the "database went away" tests).
 *
 * PostgreSQL refuses to run as root, so under root (CI) every server command runs as the
 * `postgres` user of Debian's package through runuser. The binaries come from
 * `ECONSIG_PG_BIN`, else the newest /usr/lib/postgresql/<n>/bin, else PATH.
 * `.ci/run` installs the package (apt-get install postgresql).
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PgCluster {
  /** postgres://econsig:<password>@127.0.0.1:<port>/econsig (a database created at start) */
  url: string;
  password: string;
  port: number;
  /** A URL for another database of this cluster (created with createDatabase). */
  urlFor(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** Runs SQL through psql as the superuser; returns its stdout. */
  psql(sql: string, database?: string): Promise<string>;
  /** pg_dump of a database's rows (what a backup of it would hold), as text. */
  dump(database: string): Promise<string>;
  /** Fast shutdown (sessions are cut, as when a database host goes away). */
  pause(): Promise<void>;
  /** Immediate shutdown (`pg_ctl stop -m immediate`: every process killed, commits in flight cut off, recovery at the next start). */
  crash(): Promise<void>;
  /** Starts it again on the same port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Where initdb, pg_ctl and psql are; undefined when PostgreSQL is not installed. */
export function findPostgresBin(): string | undefined {
  const fromEnv = process.env.ECONSIG_PG_BIN;
  if (fromEnv && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb'))) return dir;
  return undefined;
}

/** True when the PostgreSQL tests can run here. In CI a missing PostgreSQL is a failure, not a skip. */
export function havePostgres(): boolean {
  if (findPostgresBin() !== undefined) return true;
  if (process.env.CI) throw new Error('PostgreSQL is not installed (apt-get install postgresql); CI must run the team-store tests');
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  /** fsync off by default: tests need no durability across a power cut, and the machine is shared. */
  fsync?: boolean;
  maxConnections?: number;
}

export async function startPostgres(options: StartOptions = {}): Promise<PgCluster> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error('PostgreSQL is not installed: apt-get install postgresql');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'econsig-pg-'));
  const data = join(dir, 'data');
  const sockets = join(dir, 'sockets');
  const password = `pw-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`);
  mkdirSync(sockets);
  if (asRoot) {
    const { uid, gid } = await userIds('postgres');
    for (const p of [dir, sockets, pwfile]) chownSync(p, uid, gid);
  }
  chmodSync(dir, 0o700);

  const as = (cmd: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args];
  const exec = async (cmd: string, args: string[], timeout = 60_000) => {
    const [file, argv] = as(cmd, args);
    return run(file, argv, { timeout, env: { ...process.env, LC_ALL: 'C' } });
  };

  await exec('initdb', ['-D', data, '-U', 'econsig', `--pwfile=${pwfile}`, '--auth-host=scram-sha-256', '--auth-local=trust', '-E', 'UTF8', '--no-instructions', '--no-sync']);
  rmSync(pwfile);
  const port = await freePort();
  const settings = [
    `listen_addresses='127.0.0.1'`,
    `port=${port}`,
    `unix_socket_directories='${sockets}'`,
    `fsync=${options.fsync === true ? 'on' : 'off'}`,
    `max_connections=${options.maxConnections ?? 100}`,
    `shared_buffers=32MB`,
    `log_min_messages=warning`,
  ];
  writeFileSync(join(data, 'postgresql.auto.conf'), `${settings.join('\n')}\n`);
  if (asRoot) {
    const { uid, gid } = await userIds('postgres');
    chownSync(join(data, 'postgresql.auto.conf'), uid, gid);
  }
  const log = join(dir, 'server.log');
  const start = () => exec('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start']);
  const stopServer = (mode: 'fast' | 'immediate' = 'fast') => exec('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  await start();
  let running = true;

  const psql = async (sql: string, database = 'postgres'): Promise<string> => {
    const { stdout } = await exec('psql', ['-h', sockets, '-p', String(port), '-U', 'econsig', '-d', database, '-v', 'ON_ERROR_STOP=1', '-XAtq', '-c', sql]);
    return stdout;
  };
  const urlFor = (database: string) => `postgres://econsig:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  await psql('CREATE DATABASE econsig');
  return {
    url: urlFor('econsig'),
    password,
    port,
    urlFor,
    async createDatabase(name) {
      await psql(`CREATE DATABASE "${name}"`);
      return urlFor(name);
    },
    psql,
    async dump(database) {
      const { stdout } = await exec('pg_dump', ['-h', sockets, '-p', String(port), '-U', 'econsig', '-d', database, '--data-only']);
      // pg_dump 15.14 and later fence the script with a random \restrict key: the same rows dump alike without it.
      return stdout.replace(/^\\(un)?restrict .*\n/gm, '');
    },
    async pause() {
      if (!running) return;
      await stopServer();
      running = false;
    },
    async crash() {
      if (!running) return;
      await stopServer('immediate');
      running = false;
    },
    async resume() {
      if (running) return;
      await start();
      running = true;
    },
    async stop() {
      try {
        if (running) await stopServer();
      } finally {
        running = false;
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
  const { stdout: u } = await run('id', ['-u', name]);
  const { stdout: g } = await run('id', ['-g', name]);
  return { uid: Number(u.trim()), gid: Number(g.trim()) };
}
