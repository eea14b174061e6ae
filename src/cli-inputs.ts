/**
 * What each command receives once commander has parsed argv: the typed inputs, the
 * context, and the contract every `src/commands/<name>.ts` module fulfils.
 */
import type { FieldSetting } from './cli-parsers.js';
import type { Io } from './ui/io.js';

// ---------------------------------------------------------------------------
// Typed inputs: what each command receives once commander has parsed argv.
// ---------------------------------------------------------------------------

export interface GlobalOptions {
  profile: string | undefined;
  baseUrl: string | undefined;
  json: boolean;
  color: boolean;
  verbose: boolean;
  /** --reveal: a person's data (CPF, account, Pix key...) shown whole in messages and logs. */
  reveal: boolean;
}

export interface ValidateInput {
  files: string[];
  strict: boolean;
  /** List only the files with errors or warnings, then the summary. */
  quiet?: boolean;
  /** Sheets: only this row. */
  row?: number;
  /** xlsx: the worksheet to read. */
  sheet?: string | undefined;
  /** The format of `-` when it is a sheet. */
  format?: 'csv' | 'xlsx' | undefined;
}

export interface SubmitInput {
  files: string[];
  wait: boolean;
  /** Seconds to wait for each result with --wait. */
  timeout: number | undefined;
  listen: { host: string; port: number } | undefined;
  dryRun: boolean;
  interactive: boolean;
  save: string | undefined;
  yes: boolean;
  concurrency: number | undefined;
  requestTimeout: number | undefined;
  force: boolean;
  strict: boolean;
  report: string | undefined;
  /** xlsx: the worksheet to read. */
  sheet?: string | undefined;
  /** The format of `-` when it is a sheet. */
  format?: 'csv' | 'xlsx' | undefined;
  /** Sheets: where the results sheet goes (default `<name>.resultados.<ext>` beside the input). */
  results?: string | undefined;
  /** Sheets: only this row (with -i: the row the wizard starts from). */
  row?: number | undefined;
  /** -q: errors only (no warnings, no line per accepted submission). */
  quiet?: boolean;
}

export interface WatchInput {
  port: number | undefined;
  host: string | undefined;
  path: string | undefined;
  secret: string | undefined;
  /** Callback authentication scheme (config webhook.auth). */
  auth: string | undefined;
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  forwardTo: string | undefined;
  contract: string | undefined;
  timeout: number | undefined;
}

export interface SandboxInput {
  port: number;
  host: string;
  webhookUrl: string;
  token: string | undefined;
  delay: number;
  secret: string | undefined;
  rateLimit: number | undefined;
  proposals: string | undefined;
  failRate: number;
  latency: number;
  oauth?: boolean;
  /** Seconds. */
  tokenTtl?: number;
  tlsCert?: string;
  tlsKey?: string;
  clientCa?: string;
}

/** `sandbox trigger <outcome>`: a result sent now by the running sandbox. */
export interface TriggerInput {
  outcome: 'approved' | 'denied' | 'cancelled';
  contract: string | undefined;
  proposal: string | undefined;
  reason: string | undefined;
  /** --set (strings) then --set-json (any JSON), in that order. */
  set: FieldSetting[];
  times: number;
  /** The sandbox's base URL; default the one announced in this home. */
  sandbox: string | undefined;
}

export interface DemoInput {
  delay: number;
}

export type AuthInput =
  | { action: 'login'; withToken: boolean; clientCredentials?: ClientCredentialsLogin }
  | { action: 'status' }
  | { action: 'logout' }
  | { action: 'token' };

export interface ClientCredentialsLogin {
  tokenUrl: string | undefined;
  clientId: string | undefined;
  scope: string | undefined;
  clientAuth: 'basic' | 'post' | undefined;
  withSecret: boolean;
}

export type ConfigInput =
  | { action: 'get'; key: string }
  | { action: 'set'; key: string; value: string }
  | { action: 'unset'; key: string }
  | { action: 'list' }
  | { action: 'path' };

export interface HistoryInput {
  limit: number;
  proposal: string | undefined;
  contract: string | undefined;
  outcome?: string | undefined;
  /** An ISO date or a duration back from now (2h, 7d), as typed. */
  since?: string | undefined;
}

/** `events` (list), `events show <id>`, `events resend <id...> --to <url>`, `events check --to <url>`. */
export type EventsInput =
  | {
      action: 'list';
      limit: number;
      proposal: string | undefined;
      contract: string | undefined;
      outcome: string | undefined;
      /** An ISO date or a duration back from now (2h, 7d), as typed. */
      since: string | undefined;
    }
  | { action: 'show'; id: string }
  | {
      action: 'resend';
      ids: string[];
      to: string;
      contract: string | undefined;
      outcome: string | undefined;
      since: string | undefined;
      secret: string | undefined;
      yes: boolean;
    }
  | {
      action: 'check';
      to: string;
      /** A running sandbox's base URL (its own secret signs); default one started for the check. */
      sandbox: string | undefined;
      secret: string | undefined;
    };

export interface SettleInput {
  idProposta: string;
  /** The contract the provider has for it. */
  contract: string | undefined;
  /** The provider has none: it was never sent. */
  notSent: boolean;
}
/** `store prune --before` (as typed), `store forget --cpf | --proposal [--dry-run]`. */
export type StoreInput =
  | { action: 'prune'; before: string | undefined }
  | { action: 'forget'; cpf: string | undefined; proposal: string | undefined; dryRun: boolean };

export type RunsInput =
  | { action: 'list'; limit: number; since: string | undefined }
  | { action: 'show'; id: string; report: string | undefined }
  | { action: 'wait'; id: string; timeout: number | undefined };

export type SchemaInput = Record<string, never>;
/** `completion <shell>`: the script cli.ts generated from the program; or `--profiles`: the profile names. */
export type VersionInput = Record<string, never>;
export type CompletionInput = { script: string } | { profiles: true };

export interface TemplateInput {
  format: 'xlsx' | 'csv';
  output: string | undefined;
  force: boolean;
}

export type DoctorInput = Record<string, never>;

export interface CommandInputs {
  validate: ValidateInput;
  submit: SubmitInput;
  watch: WatchInput;
  sandbox: SandboxInput;
  trigger: TriggerInput;
  demo: DemoInput;
  auth: AuthInput;
  config: ConfigInput;
  history: HistoryInput;
  events: EventsInput;
  settle: SettleInput;
  store: StoreInput;
  runs: RunsInput;
  schema: SchemaInput;
  completion: CompletionInput;
  version: VersionInput;
  template: TemplateInput;
  doctor: DoctorInput;
}
export type CommandName = keyof CommandInputs;

/** What every command receives besides its own input. */
export interface Context {
  readonly io: Io;
  readonly env: Record<string, string | undefined>;
  readonly globals: GlobalOptions;
  /** The command line's arguments after the program (a run records them, secrets redacted). */
  readonly argv: readonly string[];
  /** Aborted on SIGINT/SIGTERM: long-running commands stop cleanly when it fires. */
  readonly signal: AbortSignal;
  /** Register a closer (server, agent, store) that runs however the command ends. */
  defer(close: () => unknown): void;
}

/** The contract every `src/commands/<name>.ts` module fulfils. */
export interface CommandModule<N extends CommandName> {
  run(input: CommandInputs[N], ctx: Context): Promise<number>;
}

export type Dispatch = <N extends CommandName>(
  name: N,
  input: CommandInputs[N],
  globals: GlobalOptions,
) => Promise<number>;
