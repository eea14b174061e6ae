/**
 * `store forget`, written once for both engines (docs/privacy.md, "A data subject's
 * request"): its steps as a generator of statements, which each engine runs in one
 * transaction of its own (SQLite's synchronous connection, a PostgreSQL client), and the
 * hash that lets a deletion record prove a forget without keeping the identifier.
 */
import { randomBytes, scrypt } from 'node:crypto';
import type { DeletionRecord, ForgetReport, ForgetRequest, ForgetTarget } from './record.js';
import { FORGET_TABLES, type RecordSql, type Row, type Statement, toDeletion } from './sql.js';

/**
 * The store's salt for deletion records: random, made once, kept in the store itself (table
 * `meta`). A team store is shared by every desk and the receiver, so a record written at
 * one desk can be checked at any other; a salt in one home would make it uncheckable
 * elsewhere, and lost with that home. Being beside the hashes, it is no secret: what slows
 * down guessing the 10^9 possible CPFs is the hash's cost (scrypt), not the salt.
 */
export function newSalt(): string {
  return randomBytes(32).toString('hex');
}

/**
 * scrypt (N=2^14, r=8: about 50 ms and 16 MiB) of `kind:identifier` with the store's salt.
 * One salt per store rather than per record: checking whether a CPF was forgotten is then
 * one hash and an indexed lookup, not one hash per record.
 */
export function identifierHash(salt: string, target: ForgetTarget): Promise<string> {
  const identifier = target.kind === 'cpf' ? `cpf:${target.cpf}` : `proposal:${target.idProposta}`;
  return new Promise((resolve, reject) => {
    scrypt(identifier, salt, 32, (error, key) => (error ? reject(error) : resolve(key.toString('hex'))));
  });
}

const text = (value: unknown): string => String(value);

/**
 * The steps of a forget: find the rows that quote the target, widen to their proposals'
 * and contracts' rows, clear (or, dry, count) each table's personal fields, look up earlier
 * deletions of the same identifier, write the deletion record. `hash`: the identifier's
 * (null when no salt exists yet, on a dry run).
 */
export function* forgetSteps(sql: RecordSql, request: ForgetRequest, hash: string | null): Generator<Statement, ForgetReport, Row[]> {
  const proposals = new Set<string>(request.target.kind === 'proposal' ? [request.target.idProposta] : []);
  const contracts = new Set<string>();
  const deliveries: unknown[] = [];
  const runInputs: unknown[] = [];
  const note = (row: Row): void => {
    if (row.id_proposta !== null && row.id_proposta !== undefined) proposals.add(text(row.id_proposta));
    if (row.id_contrato !== null && row.id_contrato !== undefined) contracts.add(text(row.id_contrato));
  };
  for (const row of yield sql.forgetFind(request.target)) {
    note(row);
    if (row.source === 'delivery') deliveries.push(row.id);
    if (row.source === 'run_input') runInputs.push(row.id);
  }
  if (proposals.size + contracts.size > 0) for (const row of yield sql.forgetRelated({ proposals: [...proposals], contracts: [...contracts], deliveries, runInputs })) note(row);

  const targets = { proposals: [...proposals].sort(), contracts: [...contracts].sort(), deliveries, runInputs };
  const rows = { submissions: 0, answers: 0, results: 0, deliveries: 0, runInputs: 0 };
  for (const table of FORGET_TABLES) {
    rows[table === 'run_inputs' ? 'runInputs' : table] = (yield request.dryRun ? sql.forgetCount(table, targets) : sql.forgetClear(table, targets, request.at)).length;
  }
  const earlier = hash === null ? [] : (yield sql.deletionsOf(hash)).map(toDeletion);
  let deletion: DeletionRecord | null = null;
  if (!request.dryRun && hash !== null) {
    const total = rows.submissions + rows.answers + rows.results + rows.deliveries + rows.runInputs;
    deletion = { at: request.at, kind: request.target.kind, identifierHash: hash, rows: total, by: request.by };
    yield sql.insertDeletion(deletion);
  }
  return { target: request.target, dryRun: request.dryRun, proposals: targets.proposals, contracts: targets.contracts, rows, deletion, earlier };
}

/** Runs steps on a synchronous connection (SQLite, inside its transaction). */
export function runSteps<T>(steps: Generator<Statement, T, Row[]>, run: (statement: Statement) => Row[]): T {
  let next = steps.next([]);
  while (!next.done) next = steps.next(run(next.value));
  return next.value;
}

/** Runs steps on an asynchronous connection (a PostgreSQL client, inside its transaction). */
export async function runStepsAsync<T>(steps: Generator<Statement, T, Row[]>, run: (statement: Statement) => Promise<Row[]>): Promise<T> {
  let next = steps.next([]);
  while (!next.done) next = steps.next(await run(next.value));
  return next.value;
}
