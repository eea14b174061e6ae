import { resolve } from 'node:path';
import type { Context, SandboxInput } from '../cli.js';

/** `econsig sandbox`: run the simulator until SIGINT/SIGTERM, logging every exchange. */
export async function run(input: SandboxInput, ctx: Context): Promise<number> {
  const [{ startSandbox, CONTRACTS_PATH }, { createSandboxOutput }] = await Promise.all([
    import('../sandbox/server.js'),
    import('../ui/sandbox-output.js'),
  ]);
  const output = createSandboxOutput(ctx.io);
  // The listener reads ECONSIG_WEBHOOK_SECRET too, so both sides agree without a flag.
  const secret = input.secret ?? (ctx.env.ECONSIG_WEBHOOK_SECRET || undefined);
  const sandbox = await startSandbox({
    port: input.port,
    host: input.host,
    token: input.token,
    webhookUrl: input.webhookUrl,
    delayMs: input.delay * 1000,
    secret,
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
