/**
 * `econsig completion` (issue 24): the bash script, sourced in a real bash, completes
 * commands, subcommands, options, files and profiles; zsh and fish scripts are made from
 * the same tree.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, runCli } from './run-cli.js';
import { useScratch } from './submit-harness.js';

const scratch = useScratch();

/** What bash's completion function offers for `line` (the last word is the one completed), in `cwd`. */
function complete(script: string, line: string[], cwd: string): string[] {
  const shim = join(scratch.dir, 'bin');
  mkdirSync(shim, { recursive: true });
  // `econsig` on PATH, as installed: the scripts call `econsig completion --profiles`.
  writeFileSync(join(shim, 'econsig'), `#!/bin/sh\nexec '${process.execPath}' '${binPath}' "$@"\n`, { mode: 0o755 });
  const words = line.map((w) => `'${w}'`).join(' ');
  const run = spawnSync('bash', ['-c', `source '${script}'; COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}; _econsig; printf '%s\\n' "\${COMPREPLY[@]}"`], {
    cwd,
    encoding: 'utf8',
    env: { PATH: `${shim}:${dirname(process.execPath)}:/usr/bin:/bin`, ECONSIG_HOME: scratch.home, CI: '1' },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter(Boolean);
}

describe('econsig completion', () => {
  it('bash: sourced in a real bash, `econsig sub` completes to submit; subcommands, options, files and profiles too', async () => {
    const bash = await runCli(['completion', 'bash'], { env: { ECONSIG_HOME: scratch.home } });
    expect(bash.code, bash.stderr).toBe(0);
    const script = join(scratch.dir, 'econsig.bash');
    writeFileSync(script, bash.stdout);
    expect(complete(script, ['econsig', 'sub'], scratch.dir)).toEqual(['submit']);
    expect(complete(script, ['econsig', 'auth', 'log'], scratch.dir)).toEqual(['login', 'logout']);
    expect(complete(script, ['econsig', 'submit', '--res'], scratch.dir)).toEqual(['--results']);
    writeFileSync(join(scratch.dir, 'planilha.xlsx'), '');
    expect(complete(script, ['econsig', 'validate', 'plan'], scratch.dir)).toEqual(['planilha.xlsx']);
    expect(complete(script, ['econsig', 'submit', '--report', 'plan'], scratch.dir)).toEqual(['planilha.xlsx']);
    expect((await runCli(['config', 'set', 'base-url', 'https://homolog.example.com', '--profile', 'homolog'], { env: { ECONSIG_HOME: scratch.home } })).code).toBe(0);
    expect(complete(script, ['econsig', 'submit', '--profile', 'h'], scratch.dir)).toEqual(['homolog']);
  });

  it('zsh and fish: made from the same commands', async () => {
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.stdout).toContain('bashcompinit');
    expect(zsh.stdout).toContain("'auth') echo 'login status logout token'");
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toContain("complete -c econsig -n '__fish_use_subcommand' -a 'validate submit");
    expect(fish.stdout).toContain("-l profile -x -a '(econsig completion --profiles 2>/dev/null)'");
    expect((await runCli(['completion', 'tcsh'])).code).toBe(2);
  });
});
