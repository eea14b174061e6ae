/**
 * scripts/demo-auth.sh, the documented OAuth2 + mTLS walk-through (docs/auth.md), runs as
 * written: certificates by openssl, the sandbox over HTTPS demanding a client certificate,
 * a profile set up by config and `auth login --client-credentials`, then doctor and submit.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot } from './run-cli.js';

describe('scripts/demo-auth.sh', () => {
  it('runs the whole flow and exits 0, leaving no secret in its output but the sandbox\'s own first line', () => {
    const run = spawnSync('bash', [join(repoRoot, 'scripts', 'demo-auth.sh')], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: '1', NO_COLOR: '1', ECONSIG: `${process.execPath} ${binPath}` },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('✓ all checks passed');
    expect(run.stderr).toMatch(/accepted {2}202 accepted: contract [0-9a-f-]{36}/);
    const secret = /client_secret (\S+)/.exec(run.stderr)?.[1];
    expect(secret).toBeDefined();
    // The secret appears once: in the sandbox's log shown at the end, never in econsig's output.
    expect(run.stderr.split(secret as string)).toHaveLength(2);
  }, 60_000);
});
