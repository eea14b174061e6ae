import { resolve } from 'node:path';
import type { Context, SandboxInput } from '../cli-inputs.js';
import { UsageError } from '../errors.js';
import { listenerSettings, resolveSettings } from '../store/settings.js';
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
  });
  ctx.defer(() => sandbox.close());
  output.listening({
    baseUrl: sandbox.url,
    token: sandbox.token,
    endpoint: `${sandbox.url}${CONTRACTS_PATH}`,
    webhookUrl: sandbox.webhookUrl,
    delaySeconds: input.delay,
    signed: secret !== undefined,
  });

  await new Promise<void>((done) => {
    if (ctx.signal.aborted) return done();
    ctx.signal.addEventListener('abort', () => done(), { once: true });
  });
  output.closed(await sandbox.close());
  return 0;
}
