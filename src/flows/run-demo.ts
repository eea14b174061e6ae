/**
 * `econsig demo`: the whole flow on this machine, with nothing to set up. A temporary
 * home, a listener and the sandbox on free ports, the bundled example validated,
 * submitted with the sandbox's token, and its result awaited.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageFileText } from '../package-files.js';
import { startSandbox } from '../sandbox/server.js';
import { serviceIdentity } from '../service/base-url.js';
import { openStore } from '../record/open.js';
import { storeId } from '../settings/home.js';
import { startResultWaiter } from './result-waiter.js';
import { runSubmit } from './run-submit.js';
import type { BatchProgress } from './submit-batch.js';
import { reportOf } from './validate-files.js';
import type { SubmitResult, FileReport } from '../domain/report.js';

const DEMO_EXAMPLE = ['fixtures', 'valid', 'bank-and-pix.json'];

export interface DemoSteps {
  onValidated(report: FileReport): void;
  onStarted(info: { sandboxUrl: string; token: string; webhookUrl: string }): void;
  progress?: BatchProgress;
}

export interface DemoOutcome {
  report: FileReport;
  results: SubmitResult[];
}

export async function runDemo(options: { delayMs: number; signal: AbortSignal; now: () => Date; steps: DemoSteps; }): Promise<DemoOutcome> {
  const home = mkdtempSync(join(tmpdir(), 'econsig-demo-'));
  try {
    const report = reportOf(DEMO_EXAMPLE.join('/'), JSON.parse(packageFileText(...DEMO_EXAMPLE)), { now: options.now(), strict: false, keepValues: true });
    options.steps.onValidated(report);
    if (!report.ok) return { report, results: [] };

    // Each resource is closed however a later step fails: an open server would keep the
    // process alive after the error is shown.
    const closers: Array<() => Promise<unknown>> = [];
    try {
      const store = await openStore({ home });
      closers.unshift(() => store.close());
      const waiter = await startResultWaiter({ store, storeId: await storeId(home, store.location), listener: { host: '127.0.0.1', port: 0, path: '/webhook' } });
      closers.unshift(() => waiter.close());
      const sandbox = await startSandbox({ port: 0, webhookUrl: waiter.mode.url, delayMs: options.delayMs });
      closers.unshift(() => sandbox.close());
      options.steps.onStarted({ sandboxUrl: sandbox.url, token: sandbox.token, webhookUrl: waiter.mode.url });
      const results = await runSubmit([report], {
        store,
        wait: { waiter, timeoutMs: options.delayMs + 15_000 },
        profile: 'demo',
        baseUrl: sandbox.url,
        service: serviceIdentity(sandbox.url),
        token: sandbox.token,
        requestTimeoutMs: 10_000,
        concurrency: 1,
        force: false,
        signal: options.signal,
        now: options.now,
        ...(options.steps.progress ? { progress: options.steps.progress } : {}),
      });
      return { report, results };
    } finally {
      for (const close of closers) await close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
