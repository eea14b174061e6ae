/**
 * The map of the tool: every command and flag, its help and examples. Nothing here runs a
 * command: main.ts imports each command's code only when it runs, so `--help` and
 * `--version` load nothing but commander. Typed inputs: cli-inputs.ts; flag value parsers:
 * cli-parsers.ts.
 */
import { Argument, Command, CommanderError, Option } from '@commander-js/extra-typings';
import { completionScript, completionSpecs } from './cli-completion.js';
import type { Dispatch, GlobalOptions, SubmitInput } from './cli-inputs.js';
import { collectSet, collectSetJson, type FieldSetting, parseBaseUrlFlag, parseHost, parseLang, parseListen, parseMilliseconds, parsePort, parsePositiveInt, parsePositiveSeconds, parseSeconds, parseShare, parseTimes, parseUrl } from './cli-parsers.js';
import { type HelpKey, examplesIn, helpIn } from './cli-help.js';
import { type Lang, say } from './i18n/index.js';
import { versionText } from './package-files.js';

export type * from './cli-inputs.js';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * Build the commander program. `dispatch` receives each command's typed input. `lang`: the
 * help's language; each description is named by its key in the catalogue (i18n/help.ts).
 */
export function buildProgram(
  dispatch: Dispatch,
  output: { writeOut(text: string): void; writeErr(text: string): void; outputError?(text: string, write: (text: string) => void): void },
  lang: Lang,
) {
  const help = (key: HelpKey): string => say(lang, key);
  // A comment of an example is a key of the catalogue too: `# help.ex.demo`.
  const examples = (...lines: string[]): string => examplesIn(lang, lines);
  const program = new Command('econsig')
    // Set before any subcommand is added: subcommands copy these settings when created.
    .exitOverride()
    // Each command's help lists --profile, --json... too (issue 14).
    .configureHelp({ showGlobalOptions: true, ...helpIn(lang) })
    .description(help('help.econsig'))
    .version(versionText(), '-V, --version', help('help.version'))
    .helpOption('-h, --help', help('help.help'))
    .helpCommand('help [command]', help('help.helpCommand'))
    .option('--profile <name>', help('help.profile'))
    .addOption(new Option('--base-url <url>', help('help.baseUrl')).argParser(parseBaseUrlFlag))
    .option('--json', help('help.json'))
    .option('--no-color', help('help.color'))
    .option('--verbose', help('help.verbose'))
    .addOption(new Option('--lang <locale>', help('help.lang')).argParser(parseLang))
    .option('--reveal', help('help.reveal'))
    .showSuggestionAfterError(true)
    .enablePositionalOptions(false)
    .addHelpText(
      'after',
      examples(
        'econsig demo                                   # help.ex.demo',
        'econsig validate fixtures/valid                # help.ex.validate',
        'econsig submit --file proposal.json --wait     # help.ex.submitWait',
        'ECONSIG_TOKEN=... econsig submit p.json --wait --json   # help.ex.ci',
      ) + `\n${help('help.exitCodes')}\n`,
    );
  program.configureOutput(output);
  const globals = (): GlobalOptions => {
    const o = program.opts();
    return {
      profile: o.profile,
      baseUrl: o.baseUrl,
      json: o.json === true,
      color: o.color,
      verbose: o.verbose === true,
      reveal: o.reveal === true,
    };
  };

  program
    .command('validate')
    .description(help('help.validate'))
    .argument('[file...]', help('help.files'))
    .option('--strict', help('help.strict'))
    .option('-q, --quiet', help('help.validate.quiet'))
    .option('--row <n>', help('help.validate.row'), parsePositiveInt)
    .option('--sheet <name>', help('help.sheet'))
    .addOption(new Option('--format <format>', help('help.format')).choices(['csv', 'xlsx'] as const))
    .addHelpText(
      'after',
      examples(
        'econsig validate proposal.json',
        'econsig validate submissions/ --json',
        'cat proposal.json | econsig validate -',
        'econsig validate planilha.xlsx --sheet Propostas   # help.ex.sheetRows',
        'cat planilha.csv | econsig validate - --format csv',
      ),
    )
    .action(async (files, o) => {
      await dispatch('validate', { files, strict: o.strict === true, ...(o.quiet ? { quiet: true } : {}), sheet: o.sheet, format: o.format, ...(o.row !== undefined ? { row: o.row } : {}) }, globals());
    });

  program
    .command('submit')
    .description(help('help.submit'))
    .argument('[file...]', help('help.files'))
    .option('-f, --file <path>', help('help.submit.file'), collect, [])
    .option('--wait', help('help.submit.wait'))
    .option('--timeout <seconds>', help('help.submit.timeout'), parsePositiveSeconds)
    .option('--listen <host:port>', help('help.submit.listen'), parseListen)
    .option('--dry-run', help('help.submit.dryRun'))
    .option('-i, --interactive', help('help.submit.interactive'))
    .option('--save <file>', help('help.submit.save'))
    .option('-y, --yes', help('help.submit.yes'))
    .option('--concurrency <n>', help('help.submit.concurrency'), parsePositiveInt)
    .option('--request-timeout <seconds>', help('help.submit.requestTimeout'), parsePositiveSeconds)
    .option('--force', help('help.submit.force'))
    .option('--strict', help('help.strict'))
    .option('--report <file>', help('help.submit.report'))
    .option('--sheet <name>', help('help.sheet'))
    .addOption(new Option('--format <format>', help('help.format')).choices(['csv', 'xlsx'] as const))
    .option('--results <file>', help('help.submit.results'))
    .option('--row <n>', help('help.submit.row'), parsePositiveInt)
    .option('-q, --quiet', help('help.submit.quiet'))
    .addHelpText(
      'after',
      examples(
        'econsig submit --file proposal.json --wait',
        'econsig submit planilha.xlsx --wait   # help.ex.sheetResults',
        'econsig submit -i --file planilha.xlsx --row 7   # help.ex.wizardRow',
        'econsig submit submissions/ --concurrency 8 --report junit.xml',
        'econsig submit proposal.json --dry-run',
        'econsig submit                                  # help.ex.wizard',
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
        sheet: o.sheet,
        format: o.format,
        results: o.results,
        row: o.row,
        ...(o.quiet ? { quiet: true } : {}),
      };
      await dispatch('submit', input, globals());
    });

  program
    .command('watch')
    .description(help('help.watch'))
    .option('--port <n>', help('help.watch.port'), parsePort)
    .option('--host <addr>', help('help.watch.host'), parseHost)
    .option('--path <path>', help('help.watch.path'))
    .option('--secret <secret>', help('help.watch.secret'))
    .addOption(
      new Option('--auth <scheme>', help('help.watch.auth')).choices([
        'none',
        'standard-webhooks',
        'bearer',
        'api-key',
        'basic',
      ]),
    )
    .option('--tls-cert <file>', help('help.watch.tlsCert'))
    .option('--tls-key <file>', help('help.watch.tlsKey'))
    .addOption(new Option('--forward-to <url>', help('help.watch.forwardTo')).argParser(parseUrl))
    .option('--contract <id>', help('help.watch.contract'))
    .option('--timeout <seconds>', help('help.watch.timeout'), parsePositiveSeconds)
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

  const sandbox = program
    .command('sandbox')
    .description(help('help.sandbox'))
    .option('--port <n>', help('help.sandbox.port'), parsePort, 4010)
    .option('--host <addr>', help('help.sandbox.host'), parseHost, '127.0.0.1')
    .addOption(
      new Option('--webhook-url <url>', help('help.sandbox.webhookUrl'))
        .argParser(parseUrl)
        .default('http://127.0.0.1:4020/webhook'),
    )
    .option('--token <token>', help('help.sandbox.token'))
    .option('--delay <seconds>', help('help.sandbox.delay'), parseSeconds, 3)
    .option('--secret <secret>', help('help.sandbox.secret'))
    .option('--rate-limit <n>', help('help.sandbox.rateLimit'), parsePositiveInt)
    .option('--proposals <file>', help('help.sandbox.proposals'))
    .option('--fail-rate <share>', help('help.sandbox.failRate'), parseShare, 0)
    .option('--latency <ms>', help('help.sandbox.latency'), parseMilliseconds, 0)
    .option('--oauth', help('help.sandbox.oauth'))
    .option('--token-ttl <seconds>', help('help.sandbox.tokenTtl'), parsePositiveSeconds)
    .option('--tls-cert <file>', help('help.sandbox.tlsCert'))
    .option('--tls-key <file>', help('help.sandbox.tlsKey'))
    .option('--client-ca <file>', help('help.sandbox.clientCa'))
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
  sandbox
    .command('trigger')
    .description(help('help.trigger'))
    .addArgument(new Argument('<outcome>', help('help.trigger.outcome')).choices(['approved', 'denied', 'cancelled'] as const))
    .option('--contract <idContrato>', help('help.trigger.contract'))
    .option('--proposal <idProposta>', help('help.trigger.proposal'))
    .option('--reason <text>', help('help.trigger.reason'))
    .option('--set <path=value>', help('help.trigger.set'), collectSet, [] as FieldSetting[])
    .option('--set-json <path=json>', help('help.trigger.setJson'), collectSetJson, [] as FieldSetting[])
    .option('--times <n>', help('help.trigger.times'), parseTimes, 1)
    .addOption(new Option('--sandbox <url>', help('help.trigger.sandbox')).argParser(parseUrl))
    .addHelpText(
      'after',
      examples(
        'econsig sandbox trigger denied --contract 0b6c5f3e-... --set motivo="Margem insuficiente"',
        'econsig sandbox trigger approved --proposal PROP-1001 --times 3   # help.ex.triggerTimes',
        'econsig sandbox trigger cancelled --contract C-1 --set-json contaBancaria=null --sandbox http://127.0.0.1:4010',
      ) + `\n${help('help.trigger.exitCode')}\n`,
    )
    .action(async (outcome, o) => {
      await dispatch('trigger', { outcome, contract: o.contract, proposal: o.proposal, reason: o.reason, set: [...o.set, ...o.setJson], times: o.times, sandbox: o.sandbox }, globals());
    });

  program
    .command('demo')
    .description(help('help.demo'))
    .option('--delay <seconds>', help('help.demo.delay'), parseSeconds, 1)
    .addHelpText('after', examples('econsig demo', 'econsig demo --json'))
    .action(async (o) => {
      await dispatch('demo', { delay: o.delay }, globals());
    });

  const auth = program.command('auth').description(help('help.auth'));
  auth
    .command('login')
    .description(help('help.auth.login'))
    .option('--with-token', help('help.auth.login.withToken'))
    .option('--client-credentials', help('help.auth.login.clientCredentials'))
    .addOption(new Option('--token-url <url>', help('help.auth.login.tokenUrl')).argParser(parseUrl))
    .option('--client-id <id>', help('help.auth.login.clientId'))
    .option('--scope <scope>', help('help.auth.login.scope'))
    .addOption(new Option('--client-auth <how>', help('help.auth.login.clientAuth')).choices(['basic', 'post']))
    .option('--with-secret', help('help.auth.login.withSecret'))
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
    .description(help('help.auth.status'))
    .addHelpText('after', examples('econsig auth status', 'econsig auth status --profile homolog --json'))
    .action(async () => {
      await dispatch('auth', { action: 'status' }, globals());
    });
  auth
    .command('logout')
    .description(help('help.auth.logout'))
    .addHelpText('after', examples('econsig auth logout', 'econsig auth logout --profile homolog'))
    .action(async () => {
      await dispatch('auth', { action: 'logout' }, globals());
    });
  auth
    .command('token')
    .description(help('help.auth.token'))
    .addHelpText('after', examples('curl -H "Authorization: Bearer $(econsig auth token)" ...'))
    .action(async () => {
      await dispatch('auth', { action: 'token' }, globals());
    });

  const config = program
    .command('config')
    .description(help('help.config'))
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
    .description(help('help.config.get'))
    .addHelpText('after', examples('econsig config get base-url', 'econsig config get webhook.port --profile homolog'))
    .action(async (key) => {
      await dispatch('config', { action: 'get', key }, globals());
    });
  config
    .command('set')
    .argument('<key>')
    .argument('<value>')
    .description(help('help.config.set'))
    .addHelpText('after', examples('econsig config set base-url https://homolog.example.com --profile homolog', 'econsig config set concurrency 8'))
    .action(async (key, value) => {
      await dispatch('config', { action: 'set', key, value }, globals());
    });
  config
    .command('unset')
    .argument('<key>')
    .description(help('help.config.unset'))
    .addHelpText('after', examples('econsig config unset request-timeout'))
    .action(async (key) => {
      await dispatch('config', { action: 'unset', key }, globals());
    });
  config
    .command('list')
    .description(help('help.config.list'))
    .addHelpText('after', examples('econsig config list', 'econsig config list --profile homolog --json'))
    .action(async () => {
      await dispatch('config', { action: 'list' }, globals());
    });
  config
    .command('path')
    .description(help('help.config.path'))
    .addHelpText('after', examples('econsig config path'))
    .action(async () => {
      await dispatch('config', { action: 'path' }, globals());
    });

  program
    .command('history')
    .description(help('help.history'))
    .option('--limit <n>', help('help.history.limit'), parsePositiveInt, 20)
    .option('--proposal <id>', help('help.history.proposal'))
    .option('--contract <id>', help('help.history.contract'))
    .option('--outcome <outcome>', help('help.history.outcome'))
    .option('--since <when>', help('help.history.since'))
    .addHelpText('after', examples('econsig history', 'econsig history --proposal PROP-1001 --json', 'econsig history --outcome rejected --since 7d'))
    .action(async (o) => {
      await dispatch('history', { limit: o.limit, proposal: o.proposal, contract: o.contract, outcome: o.outcome, since: o.since }, globals());
    });

  const events = program
    .command('events')
    .description(help('help.events'))
    .addHelpText('after', examples('econsig events', 'econsig events show 42', 'econsig events resend --since 1d --to http://localhost:3000/webhooks'));
  // `econsig events` is `econsig events list`: the list's flags stay its own (resend has a --contract too).
  events
    .command('list', { isDefault: true })
    .description(help('help.events.list'))
    .option('--limit <n>', help('help.events.limit'), parsePositiveInt, 20)
    .option('--contract <id>', help('help.events.contract'))
    .option('--proposal <id>', help('help.events.proposal'))
    .option('--outcome <outcome>', help('help.events.outcome'))
    .option('--since <when>', help('help.events.since'))
    .addHelpText('after', examples('econsig events', 'econsig events --contract C-1001 --json', 'econsig events --outcome denied --since 1d --limit 50'))
    .action(async (o) => {
      await dispatch('events', { action: 'list', limit: o.limit, contract: o.contract, proposal: o.proposal, outcome: o.outcome, since: o.since }, globals());
    });
  events
    .command('show')
    .description(help('help.events.show'))
    .argument('<id>', help('help.events.id'))
    .addHelpText('after', examples('econsig events show 42', 'econsig events show msg_2a9f... --json'))
    .action(async (id) => {
      await dispatch('events', { action: 'show', id }, globals());
    });
  events
    .command('resend')
    .description(help('help.events.resend'))
    .argument('[id...]', help('help.events.ids'))
    .requiredOption('--to <url>', help('help.events.to'), parseUrl)
    .option('--contract <id>', help('help.events.contract'))
    .option('--outcome <outcome>', help('help.events.outcome'))
    .option('--since <when>', help('help.events.since'))
    .option('--secret <whsec>', help('help.events.secret'))
    .option('-y, --yes', help('help.events.yes'))
    .addHelpText(
      'after',
      examples('econsig events resend 42 43 --to http://localhost:3000/webhooks', 'econsig events resend --since 1d --to https://homolog.example.com/hooks --secret whsec_...') +
        `\n${help('help.events.resendExitCode')}\n`,
    )
    .action(async (ids, o) => {
      await dispatch('events', { action: 'resend', ids, to: o.to, contract: o.contract, outcome: o.outcome, since: o.since, secret: o.secret, yes: o.yes === true }, globals());
    });

  events
    .command('check')
    .description(help('help.events.check'))
    .requiredOption('--to <url>', help('help.events.checkTo'), parseUrl)
    .option('--secret <whsec>', help('help.events.checkSecret'))
    .addOption(new Option('--sandbox <url>', help('help.events.checkSandbox')).argParser(parseUrl))
    .addHelpText(
      'after',
      examples('ECONSIG_WEBHOOK_SECRET=whsec_... econsig events check --to http://127.0.0.1:3000/webhooks', 'econsig events check --to https://homolog.example.com/hooks --json') +
        `\n${help('help.events.checkExitCode')}\n`,
    )
    .action(async (o) => {
      await dispatch('events', { action: 'check', to: o.to, sandbox: o.sandbox, secret: o.secret }, globals());
    });

  const runs = program
    .command('runs')
    .description(help('help.runs'))
    .option('--limit <n>', help('help.runs.limit'), parsePositiveInt, 20)
    .option('--since <when>', help('help.runs.since'))
    .addHelpText('after', examples('econsig runs', 'econsig runs --since 1d --json', 'econsig --profile homolog runs --limit 5'))
    .action(async (o) => {
      await dispatch('runs', { action: 'list', limit: o.limit, since: o.since }, globals());
    });
  runs
    .command('show')
    .description(help('help.runs.show'))
    .argument('<id>', help('help.runs.id'))
    .option('--report <file>', help('help.runs.report'))
    .addHelpText('after', examples('econsig runs show last', 'econsig runs show r-20261127-1700-a3f --json', 'econsig runs show last --report ledger.html') + `\n${help('help.runs.showExitCode')}\n`)
    .action(async (id, o) => {
      await dispatch('runs', { action: 'show', id, report: o.report }, globals());
    });
  runs
    .command('wait')
    .description(help('help.runs.wait'))
    .argument('<id>', help('help.runs.id'))
    .option('--timeout <seconds>', help('help.runs.timeout'), parsePositiveSeconds)
    .addHelpText('after', examples('econsig runs wait last --timeout 3600   # help.ex.runsCi', 'econsig runs wait r-20261127-1700-a3f --json') + `\n${help('help.runs.waitExitCode')}\n`)
    .action(async (id, o) => {
      await dispatch('runs', { action: 'wait', id, timeout: o.timeout }, globals());
    });

  const store = program
    .command('store')
    .description(help('help.store'))
    .addHelpText('after', examples('econsig store prune --before 90d', 'econsig store forget --cpf 529.982.247-25 --dry-run'));
  store
    .command('prune')
    .description(help('help.store.prune'))
    .option('--before <when>', help('help.store.before'))
    .addHelpText('after', examples('econsig store prune --before 90d', 'econsig store prune --before 2025-01-01 --json'))
    .action(async (o) => {
      await dispatch('store', { action: 'prune', before: o.before }, globals());
    });
  store
    .command('forget')
    .description(help('help.store.forget'))
    .option('--cpf <cpf>', help('help.store.cpf'))
    .option('--proposal <id>', help('help.store.proposal'))
    .option('--dry-run', help('help.store.dryRun'))
    .addHelpText(
      'after',
      examples('econsig store forget --cpf 529.982.247-25 --dry-run   # help.ex.forgetDry', 'econsig store forget --cpf 52998224725', 'econsig store forget --proposal PROP-1001 --json'),
    )
    .action(async (o) => {
      await dispatch('store', { action: 'forget', cpf: o.cpf, proposal: o.proposal, dryRun: o.dryRun === true }, globals());
    });

  program
    .command('settle')
    .description(help('help.settle'))
    .argument('<idProposta>', help('help.settle.proposal'))
    .option('--contract <idContrato>', help('help.settle.contract'))
    .option('--not-sent', help('help.settle.notSent'))
    .addHelpText(
      'after',
      examples(
        'econsig history --outcome unknown                         # help.ex.unknown',
        'econsig settle PROP-1001 --contract 0b6c5f3e-9d1a-4c2e-8f00-1a2b3c4d5e6f   # help.ex.settleContract',
        'econsig settle PROP-1002 --not-sent                       # help.ex.settleNotSent',
      ) + `\n${help('help.settle.exitCode')}\n`,
    )
    .action(async (idProposta, o) => {
      await dispatch('settle', { idProposta, contract: o.contract, notSent: o.notSent === true }, globals());
    });

  program
    .command('doctor')
    .description(help('help.doctor'))
    .addHelpText(
      'after',
      examples('econsig doctor', 'econsig doctor --profile homolog --json') +
        `\n${help('help.doctor.exitCode')}\n`,
    )
    .action(async () => {
      await dispatch('doctor', {}, globals());
    });

  program
    .command('completion')
    .description(help('help.completion'))
    .addArgument(new Argument('[shell]', help('help.completion.shell')).choices(['bash', 'zsh', 'fish'] as const))
    .addOption(new Option('--profiles', help('help.completion.profiles')).hideHelp())
    .addHelpText('after', examples('source <(econsig completion bash)', 'econsig completion fish > ~/.config/fish/completions/econsig.fish'))
    .action(async (shell, o) => {
      if (o.profiles) {
        await dispatch('completion', { profiles: true }, globals());
        return;
      }
      if (shell === undefined) throw new CommanderError(2, 'commander.missingArgument', "error: missing required argument 'shell'");
      // The script is made from this very program: every command and option, said once here.
      await dispatch('completion', { script: completionScript(shell, completionSpecs(program as never)) }, globals());
    });

  // The same text as --version, as `gh version` has it (issue 24).
  program
    .command('version')
    .description(help('help.versionCommand'))
    .action(async () => {
      await dispatch('version', {}, globals());
    });

  program
    .command('schema')
    .description(help('help.schema'))
    .addHelpText('after', examples('econsig schema > submission.schema.json'))
    .action(async () => {
      await dispatch('schema', {}, globals());
    });

  program
    .command('template')
    .description(help('help.template'))
    .addOption(new Option('--format <format>', help('help.template.format')).choices(['xlsx', 'csv'] as const).default('xlsx' as const))
    .option('-o, --output <file>', help('help.template.output'))
    .option('--force', help('help.template.force'))
    .addHelpText(
      'after',
      examples('econsig template                       # help.ex.template', 'econsig template --format csv --lang en -o submissions.csv'),
    )
    .action(async (o) => {
      await dispatch('template', { format: o.format, output: o.output, force: o.force === true }, globals());
    });

  return program;
}

