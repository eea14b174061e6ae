/**
 * The map of the tool: every command and flag, its help and examples. Nothing here runs a
 * command: main.ts imports each command's code only when it runs, so `--help` and
 * `--version` load nothing but commander. Typed inputs: cli-inputs.ts; flag value parsers:
 * cli-parsers.ts.
 */
import { Command, Option } from '@commander-js/extra-typings';
import type { Dispatch, GlobalOptions, SubmitInput } from './cli-inputs.js';
import { parseHost, parseLang, parseListen, parseMilliseconds, parsePort, parsePositiveInt, parsePositiveSeconds, parseSeconds, parseShare, parseUrl } from './cli-parsers.js';
import { examplesIn, helpIn, helpText } from './cli-help.js';
import type { Lang } from './i18n/index.js';
import { packageVersion } from './package-files.js';

export type * from './cli-inputs.js';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * Build the commander program. `dispatch` receives each command's typed input. `lang`: the
 * help's language (cli-help.ts says the English written here in it).
 */
export function buildProgram(
  dispatch: Dispatch,
  output?: { writeOut(text: string): void; writeErr(text: string): void; outputError?(text: string, write: (text: string) => void): void },
  lang: Lang = 'en',
) {
  const examples = (...lines: string[]): string => examplesIn(lang, lines);
  const program = new Command('econsig')
    // Set before any subcommand is added: subcommands copy these settings when created.
    .exitOverride()
    // Each command's help lists --profile, --json... too (issue 14).
    .configureHelp({ showGlobalOptions: true, ...helpIn(lang) })
    .description('Submit payroll-deducted loan (consignado) contracts and follow their approval.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--profile <name>', 'settings profile to use (env ECONSIG_PROFILE)')
    .addOption(new Option('--base-url <url>', 'service base URL (env ECONSIG_BASE_URL)').argParser(parseUrl))
    .option('--json', 'machine-readable output: one JSON document on stdout')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--verbose', 'show more detail, and stack traces of errors')
    .addOption(new Option('--lang <locale>', 'language of messages and help: pt-BR or en (default from LC_ALL, LC_MESSAGES, LANG)').argParser(parseLang))
    .showSuggestionAfterError(true)
    .enablePositionalOptions(false)
    .addHelpText(
      'after',
      examples(
        'econsig demo                                   # the whole flow on the built-in sandbox',
        'econsig validate fixtures/valid                # check files, send nothing',
        'econsig submit --file proposal.json --wait     # send one and wait for the result',
        'ECONSIG_TOKEN=... econsig submit p.json --wait --json   # in CI',
      ) +
        `\n${helpText(
          lang,
          'Exit codes: 0 ok, 1 invalid, 2 usage, 3 auth, 4 proposal not found, 5 rejected,\n' +
            '6 rate limited, 7 unavailable/unknown, 8 denied, 9 no result in time,\n' +
            '70 bug in econsig, 74 local storage failure, 130 interrupted.',
        )}\n`,
    );
  if (output) program.configureOutput(output);
  const globals = (): GlobalOptions => {
    const o = program.opts();
    return {
      profile: o.profile,
      baseUrl: o.baseUrl,
      json: o.json === true,
      color: o.color,
      verbose: o.verbose === true,
      lang: o.lang,
    };
  };

  program
    .command('validate')
    .description('check submission files locally; sends nothing')
    .argument('[file...]', 'files, folders (every *.json, *.csv and *.xlsx below) or - for stdin')
    .option('--strict', 'warnings count as errors')
    .option('-q, --quiet', 'list only the files with errors or warnings, then the summary')
    .option('--sheet <name>', 'xlsx: the worksheet to read (default: the first)')
    .addOption(new Option('--format <format>', 'format of - (stdin) when it is a sheet').choices(['csv', 'xlsx'] as const))
    .addHelpText(
      'after',
      examples(
        'econsig validate proposal.json',
        'econsig validate submissions/ --json',
        'cat proposal.json | econsig validate -',
        'econsig validate planilha.xlsx --sheet Propostas   # one submission per row',
        'cat planilha.csv | econsig validate - --format csv',
      ),
    )
    .action(async (files, o) => {
      await dispatch('validate', { files, strict: o.strict === true, ...(o.quiet ? { quiet: true } : {}), sheet: o.sheet, format: o.format, lang: globals().lang }, globals());
    });

  program
    .command('submit')
    .description('validate and send submissions; no file on a terminal starts the wizard')
    .argument('[file...]', 'files, folders (every *.json, *.csv and *.xlsx below) or - for stdin')
    .option('-f, --file <path>', 'a submission file (may repeat)', collect, [])
    .option('--wait', 'wait for the approval result of each contract')
    .option('--timeout <seconds>', 'how long --wait waits (default 120)', parsePositiveSeconds)
    .option('--listen <host:port>', 'listener that --wait uses (default 127.0.0.1:4020)', parseListen)
    .option('--dry-run', 'validate and print the exact request; send nothing')
    .option('-i, --interactive', 'build the submission with the wizard')
    .option('--save <file>', 'wizard: write the built submission to this file')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--concurrency <n>', 'submissions in flight at once (default 4; config concurrency)', parsePositiveInt)
    .option('--request-timeout <seconds>', 'limit for one HTTP exchange (default 30)', parsePositiveSeconds)
    .option('--force', 'send even if the store shows this proposal already has a contract (or one that may exist)')
    .option('--strict', 'warnings count as errors')
    .option('--report <file>', 'write a JUnit XML report of the run')
    .option('--sheet <name>', 'xlsx: the worksheet to read (default: the first)')
    .addOption(new Option('--format <format>', 'format of - (stdin) when it is a sheet').choices(['csv', 'xlsx'] as const))
    .option('--results <file>', 'sheets: write the results here (.csv or .xlsx; default <name>.resultados.<ext>)')
    .option('--row <n>', 'sheets: only this row (header = 1); with -i, the row the wizard starts from', parsePositiveInt)
    .addHelpText(
      'after',
      examples(
        'econsig submit --file proposal.json --wait',
        'econsig submit planilha.xlsx --wait   # one submission per row; planilha.resultados.xlsx',
        'econsig submit -i --file planilha.xlsx --row 7   # the wizard, starting from row 7',
        'econsig submit submissions/ --concurrency 8 --report junit.xml',
        'econsig submit proposal.json --dry-run',
        'econsig submit                                  # wizard, on a terminal',
        'ECONSIG_TOKEN=$TOKEN econsig submit p.json --wait --json',
      ),
    )
    .action(async (positional, o) => {
      const input: SubmitInput = {
        files: [...positional, ...o.file],
        wait: o.wait === true,
        timeout: o.timeout,
        listen: o.listen,
        dryRun: o.dryRun === true,
        interactive: o.interactive === true,
        save: o.save,
        yes: o.yes === true,
        concurrency: o.concurrency,
        requestTimeout: o.requestTimeout,
        force: o.force === true,
        strict: o.strict === true,
        report: o.report,
        lang: globals().lang,
        sheet: o.sheet,
        format: o.format,
        results: o.results,
        row: o.row,
      };
      await dispatch('submit', input, globals());
    });

  program
    .command('watch')
    .description('run the local webhook listener and show each approval result as it arrives')
    .option('--port <n>', 'port to listen on (default 4020; 0 picks a free one)', parsePort)
    .option('--host <addr>', 'address to bind (default 127.0.0.1)', parseHost)
    .option('--path <path>', 'webhook path (default /webhook)')
    .option('--secret <secret>', 'the callback secret (prefer ECONSIG_WEBHOOK_SECRET)')
    .addOption(
      new Option('--auth <scheme>', 'callback authentication (default: standard-webhooks with a secret, else none)').choices([
        'none',
        'standard-webhooks',
        'bearer',
        'api-key',
        'basic',
      ]),
    )
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM; with --tls-key)')
    .option('--tls-key <file>', 'the private key of --tls-cert (PEM)')
    .addOption(new Option('--forward-to <url>', 'relay each delivery to a local app').argParser(parseUrl))
    .option('--contract <id>', 'exit after this contract\'s result: 0 approved, 8 denied, 9 timeout')
    .option('--timeout <seconds>', 'with --contract: how long to wait', parsePositiveSeconds)
    .addHelpText(
      'after',
      examples(
        'econsig watch',
        'econsig watch --json | jq .outcome',
        'econsig watch --port 0 --forward-to http://127.0.0.1:3000/hooks',
        'econsig watch --contract 0b6c... --timeout 60',
        'ECONSIG_WEBHOOK_SECRET=$KEY econsig watch --auth bearer --host 0.0.0.0 --tls-cert c.pem --tls-key k.pem',
      ),
    )
    .action(async (o) => {
      const { port, host, path, secret, auth, tlsCert, tlsKey, forwardTo, contract, timeout } = o;
      await dispatch('watch', { port, host, path, secret, auth, tlsCert, tlsKey, forwardTo, contract, timeout }, globals());
    });

  program
    .command('sandbox')
    .description('run the local simulator of the service')
    .option('--port <n>', 'port (0 picks a free one)', parsePort, 4010)
    .option('--host <addr>', 'address to bind', parseHost, '127.0.0.1')
    .addOption(
      new Option('--webhook-url <url>', 'where result webhooks are sent')
        .argParser(parseUrl)
        .default('http://127.0.0.1:4020/webhook'),
    )
    .option('--token <token>', 'the token it accepts (default: a fresh one, printed at start)')
    .option('--delay <seconds>', 'time a contract stays in progress before its result', parseSeconds, 3)
    .option('--secret <secret>', 'sign webhooks (Standard Webhooks, whsec_...)')
    .option('--rate-limit <n>', 'requests per second before 429', parsePositiveInt)
    .option('--proposals <file>', 'catalogue of proposals, workers and Pix keys to load')
    .option('--fail-rate <share>', 'chaos: answer this share of requests with 500', parseShare, 0)
    .option('--latency <ms>', 'chaos: add this many milliseconds to every answer', parseMilliseconds, 0)
    .option('--oauth', 'play an OAuth2 token endpoint at /oauth2/token (client id and secret printed at start)')
    .option('--token-ttl <seconds>', 'with --oauth: lifetime of each access token (default 3600)', parsePositiveSeconds)
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM), with --tls-key')
    .option('--tls-key <file>', 'private key (PEM) of --tls-cert')
    .option('--client-ca <file>', 'with --tls-cert: demand a client certificate signed by this CA (mTLS)')
    .addHelpText(
      'after',
      examples(
        'econsig sandbox',
        'econsig sandbox --port 0 --delay 1 --json',
        'econsig sandbox --rate-limit 5 --fail-rate 0.1 --latency 200',
        'econsig sandbox --oauth --token-ttl 300 --tls-cert server.pem --tls-key server.key --client-ca ca.pem',
      ),
    )
    .action(async (o) => {
      const { port, host, webhookUrl, token, delay, secret, rateLimit, proposals, failRate, latency } = o;
      const { oauth, tokenTtl, tlsCert, tlsKey, clientCa } = o;
      await dispatch(
        'sandbox',
        { port, host, webhookUrl, token, delay, secret, rateLimit, proposals, failRate, latency, oauth: oauth === true, tokenTtl, tlsCert, tlsKey, clientCa },
        globals(),
      );
    });

  program
    .command('demo')
    .description('run the whole flow against the built-in sandbox, in a few seconds')
    .option('--delay <seconds>', 'sandbox processing time', parseSeconds, 1)
    .addHelpText('after', examples('econsig demo', 'econsig demo --json'))
    .action(async (o) => {
      await dispatch('demo', { delay: o.delay }, globals());
    });

  const auth = program.command('auth').description('store, show, remove or print the bearer token or OAuth2 client credentials');
  auth
    .command('login')
    .description('store a token (masked prompt, or --with-token from stdin), or OAuth2 client credentials')
    .option('--with-token', 'read the token from standard input')
    .option('--client-credentials', 'OAuth2 client credentials: the secret from a masked prompt, or --with-secret')
    .addOption(new Option('--token-url <url>', 'with --client-credentials: the token endpoint').argParser(parseUrl))
    .option('--client-id <id>', 'with --client-credentials: the client id')
    .option('--scope <scope>', 'with --client-credentials: scope to ask for (optional)')
    .addOption(new Option('--client-auth <how>', 'with --client-credentials: basic (default) or post').choices(['basic', 'post']))
    .option('--with-secret', 'with --client-credentials: read the client secret from standard input')
    .addHelpText(
      'after',
      examples(
        'econsig auth login',
        'echo "$TOKEN" | econsig auth login --with-token --profile homolog',
        'econsig auth login --client-credentials --token-url https://auth.example.com/oauth2/token --client-id my-id',
        'printf %s "$SECRET" | econsig auth login --client-credentials --token-url ... --client-id my-id --with-secret',
      ),
    )
    .action(async (o) => {
      const clientCredentials =
        o.clientCredentials === true
          ? { tokenUrl: o.tokenUrl, clientId: o.clientId, scope: o.scope, clientAuth: o.clientAuth, withSecret: o.withSecret === true }
          : undefined;
      await dispatch('auth', { action: 'login', withToken: o.withToken === true, ...(clientCredentials ? { clientCredentials } : {}) }, globals());
    });
  auth
    .command('status')
    .description('show how the profile authenticates: token (masked), where it comes from, expiry; client certificate')
    .addHelpText('after', examples('econsig auth status', 'econsig auth status --profile homolog --json'))
    .action(async () => {
      await dispatch('auth', { action: 'status' }, globals());
    });
  auth
    .command('logout')
    .description('remove the stored token, client secret and cached access token')
    .addHelpText('after', examples('econsig auth logout', 'econsig auth logout --profile homolog'))
    .action(async () => {
      await dispatch('auth', { action: 'logout' }, globals());
    });
  auth
    .command('token')
    .description('print the token in use (for scripts)')
    .addHelpText('after', examples('curl -H "Authorization: Bearer $(econsig auth token)" ...'))
    .action(async () => {
      await dispatch('auth', { action: 'token' }, globals());
    });

  const config = program
    .command('config')
    .description('settings per profile: base-url, webhook.port, webhook.secret, request-timeout, wait-timeout, ...')
    .addHelpText(
      'after',
      examples(
        'econsig config set base-url https://homolog.example.com --profile homolog',
        'econsig config get request-timeout',
        'econsig config list --json',
      ),
    );
  config
    .command('get')
    .argument('<key>')
    .description('print one setting')
    .addHelpText('after', examples('econsig config get base-url', 'econsig config get webhook.port --profile homolog'))
    .action(async (key) => {
      await dispatch('config', { action: 'get', key }, globals());
    });
  config
    .command('set')
    .argument('<key>')
    .argument('<value>')
    .description('change one setting')
    .addHelpText('after', examples('econsig config set base-url https://homolog.example.com --profile homolog', 'econsig config set concurrency 8'))
    .action(async (key, value) => {
      await dispatch('config', { action: 'set', key, value }, globals());
    });
  config
    .command('unset')
    .argument('<key>')
    .description('go back to the default of one setting')
    .addHelpText('after', examples('econsig config unset request-timeout'))
    .action(async (key) => {
      await dispatch('config', { action: 'unset', key }, globals());
    });
  config
    .command('list')
    .description('every setting of the profile and where it comes from')
    .addHelpText('after', examples('econsig config list', 'econsig config list --profile homolog --json'))
    .action(async () => {
      await dispatch('config', { action: 'list' }, globals());
    });
  config
    .command('path')
    .description('where settings, token and store are kept')
    .addHelpText('after', examples('econsig config path'))
    .action(async () => {
      await dispatch('config', { action: 'path' }, globals());
    });

  program
    .command('history')
    .description('the store: every submission, its answer and its result, newest first')
    .option('--limit <n>', 'newest entries to show', parsePositiveInt, 20)
    .option('--proposal <id>', 'only this idProposta')
    .option('--contract <id>', 'only this idContrato')
    .option('--outcome <outcome>', 'only this outcome of the answer or the result (accepted, approved, denied, rejected, unknown...)')
    .option('--since <when>', 'only those sent since an ISO date, or a duration back from now (2h, 7d)')
    .addHelpText('after', examples('econsig history', 'econsig history --proposal PROP-1001 --json', 'econsig history --outcome rejected --since 7d'))
    .action(async (o) => {
      await dispatch('history', { limit: o.limit, proposal: o.proposal, contract: o.contract, outcome: o.outcome, since: o.since }, globals());
    });

  program
    .command('doctor')
    .description('check each step to the service: settings, clock, DNS, TCP, TLS, client certificate, token, receiver, store')
    .addHelpText(
      'after',
      examples('econsig doctor', 'econsig doctor --profile homolog --json') +
        `\n${helpText(lang, 'Exit code: 0 when every check passes, else the exit code of the first that fails.')}\n`,
    )
    .action(async () => {
      await dispatch('doctor', {}, globals());
    });

  program
    .command('schema')
    .description('print the JSON Schema of a submission file')
    .addHelpText('after', examples('econsig schema > submission.schema.json'))
    .action(async () => {
      await dispatch('schema', {}, globals());
    });

  program
    .command('template')
    .description('write an empty submissions sheet (xlsx: with a sheet explaining each column)')
    .addOption(new Option('--format <format>', 'xlsx or csv').choices(['xlsx', 'csv'] as const).default('xlsx' as const))
    .option('-o, --output <file>', 'where to write it (default modelo-econsig.<ext>; - for stdout)')
    .option('--force', 'overwrite the file if it exists')
    .addHelpText(
      'after',
      examples('econsig template                       # modelo-econsig.xlsx', 'econsig template --format csv --lang en -o submissions.csv'),
    )
    .action(async (o) => {
      await dispatch('template', { format: o.format, lang: globals().lang, output: o.output, force: o.force === true }, globals());
    });

  return program;
}

