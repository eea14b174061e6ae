import { resolve } from 'node:path';
import type { Context, SandboxInput } from '../cli-inputs.js';
import { UsageError } from '../errors.js';
import { say } from '../i18n/index.js';
import { FileRefusedError, readRegularFile } from '../safe-file.js';
import { listenerSettings, resolveSettings } from '../settings/settings.js';
import { decodeSecret } from '../webhook/verify.js';

/** `econsig sandbox`: run the simulator until SIGINT/SIGTERM, logging every exchange. */
export async function run(input: SandboxInput, ctx: Context): Promise<number> {
  const [{ startSandbox, CONTRACTS_PATH }, { createSandboxOutput }] = await Promise.all([
    import('../sandbox/server.js'),
    import('../ui/sandbox-output.js'),
  ]);
  // The same secret `watch` verifies with: --secret > ECONSIG_WEBHOOK_SECRET > webhook.secret of the profile.
  const settings = await resolveSettings({
    env: ctx.env,
    globals: ctx.globals,
    flags: input.secret === undefined ? {} : { 'webhook.secret': input.secret },
  });
  const secret = listenerSettings(settings).secret;
  if (secret) {
    try {
      decodeSecret(secret.value);
    } catch (error) {
      throw new UsageError(`The webhook secret from ${secret.source} is unusable: ${(error as Error).message}.`, 'Use a secret like whsec_<base64>, the one `econsig watch` verifies with.');
    }
  }
  const output = createSandboxOutput(ctx.io);
  const tls = tlsOptions(input);
  const sandbox = await startSandbox({
    port: input.port,
    host: input.host,
    token: input.token,
    webhookUrl: input.webhookUrl,
    delayMs: input.delay * 1000,
    secret: secret?.value,
    rateLimit: input.rateLimit,
    catalogue: input.proposals === undefined ? undefined : resolve(input.proposals),
    failRate: input.failRate,
    latencyMs: input.latency,
    onLog: (entry) => output.log(entry),
    ...(input.oauth ? { oauth: input.tokenTtl === undefined ? {} : { tokenTtlSeconds: input.tokenTtl } } : {}),
    ...(tls ? { tls } : {}),
  });
  ctx.defer(() => sandbox.close());
  // `econsig sandbox trigger` on this machine finds it, and its token, here.
  const { announceSandbox } = await import('../settings/sandbox-announce.js');
  ctx.defer(await announceSandbox(settings.paths.home, { url: sandbox.url, token: sandbox.token, pid: process.pid }));
  output.listening({
    baseUrl: sandbox.url,
    token: sandbox.token,
    endpoint: `${sandbox.url}${CONTRACTS_PATH}`,
    webhookUrl: sandbox.webhookUrl,
    delaySeconds: input.delay,
    signed: secret !== undefined,
    ...(sandbox.oauth ? { oauth: sandbox.oauth } : {}),
    ...(input.clientCa ? { clientCa: input.clientCa } : {}),
  });

  await new Promise<void>((done) => {
    if (ctx.signal.aborted) return done();
    ctx.signal.addEventListener('abort', () => done(), { once: true });
  });
  output.closed(await sandbox.close());
  return 0;
}

/** A regular file of at most 1 MiB (a FIFO or a device is refused at once); the simulator speaks English. */
function readFlagFile(path: string, flag: string): Buffer {
  try {
    return readRegularFile(resolve(path));
  } catch (error) {
    const why = error instanceof FileRefusedError ? say('en', error.problem) : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    throw new UsageError(`Cannot read ${flag} ${resolve(path)}: ${why}.`);
  }
}

/** --tls-cert/--tls-key (HTTPS) and --client-ca (demand a client certificate). */
function tlsOptions(input: SandboxInput): { cert: Buffer; key: Buffer; clientCa?: Buffer } | undefined {
  if (input.tlsCert === undefined && input.tlsKey === undefined) {
    if (input.clientCa !== undefined) throw new UsageError('--client-ca needs --tls-cert and --tls-key: client certificates exist only over HTTPS.');
    return undefined;
  }
  if (input.tlsCert === undefined || input.tlsKey === undefined) {
    throw new UsageError(`${input.tlsCert === undefined ? '--tls-key' : '--tls-cert'} needs ${input.tlsCert === undefined ? '--tls-cert' : '--tls-key'} too.`);
  }
  if (input.tokenTtl !== undefined && !input.oauth) throw new UsageError('--token-ttl needs --oauth.');
  return {
    cert: readFlagFile(input.tlsCert, '--tls-cert'),
    key: readFlagFile(input.tlsKey, '--tls-key'),
    ...(input.clientCa === undefined ? {} : { clientCa: readFlagFile(input.clientCa, '--client-ca') }),
  };
}
