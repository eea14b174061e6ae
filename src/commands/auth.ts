import type { AuthInput, Context } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { openProfile, resolveSettings, type ResolvedSettings } from '../store/settings.js';
import { describeToken, noTokenError, requireToken, resolveToken } from '../store/token.js';
import {
  writeAuthStatus,
  writeLoginResult,
  writeLogoutResult,
  writeRawToken,
  writeWarning,
} from '../ui/auth-output.js';

/** `econsig auth login|status|logout|token` (cli-contract.md "Commands"). */
export async function run(input: AuthInput, ctx: Context): Promise<number> {
  // Only status shows settings; the others need the profile and its token, so an unrelated
  // bad setting (say ECONSIG_BASE_URL) cannot stop a login or a logout.
  if (input.action === 'status') return status(await resolveSettings({ env: ctx.env, globals: ctx.globals }), ctx);
  const { profile, file } = await openProfile({ env: ctx.env, globals: ctx.globals });
  const tokenAccess: TokenAccess = { profile, file, token: resolveToken({ env: ctx.env, stored: file.token(profile.name), path: file.path }) };
  switch (input.action) {
    case 'login':
      return login(input.withToken, tokenAccess, ctx);
    case 'logout':
      return logout(tokenAccess, ctx);
    case 'token':
      writeRawToken(ctx.io, requireToken(tokenAccess.token, profile.name));
      return ExitCode.ok;
  }
}

type TokenAccess = Pick<ResolvedSettings, 'profile' | 'file' | 'token'>;

function envTokenSet(ctx: Context): boolean {
  return (ctx.env.ECONSIG_TOKEN ?? '').trim() !== '';
}

async function readToken(withToken: boolean, profile: string, ctx: Context): Promise<string> {
  // The prompt and stdin code (and @inquirer) load only on this path.
  const { promptToken, readTokenFromStdin } = await import('../ui/token-input.js');
  if (withToken) return readTokenFromStdin(ctx.io.stdin);
  if (ctx.io.canPrompt) return promptToken(ctx.io, profile);
  throw new UsageError(
    'No terminal to prompt for the token.',
    'Pipe it: echo $TOKEN | econsig auth login --with-token, or set ECONSIG_TOKEN for this run.',
  );
}

async function login(withToken: boolean, settings: TokenAccess, ctx: Context): Promise<number> {
  const profile = settings.profile.name;
  if (envTokenSet(ctx)) {
    // gh refuses here (cli/cli #2922); we store but say which token will be used.
    writeWarning(ctx.io, 'ECONSIG_TOKEN is set: it takes precedence over the stored token while it is set.');
  }
  const token = await readToken(withToken, profile, ctx);
  if (token === '') {
    throw new UsageError('The token is empty; nothing was stored.', 'Pipe the token: echo $TOKEN | econsig auth login --with-token');
  }
  if (/\s/.test(token)) {
    throw new UsageError(
      'The token contains spaces or line breaks; nothing was stored.',
      'Pipe only the token itself, on one line.',
    );
  }
  settings.file.setToken(profile, token);
  writeLoginResult(ctx.io, { profile, path: settings.file.path });
  return ExitCode.ok;
}

function status(settings: ResolvedSettings, ctx: Context): number {
  const profile = settings.profile.name;
  const now = new Date();
  const token = describeToken(settings.token, now);
  const shadowed = settings.token?.source === 'env' && settings.file.token(profile) !== undefined;
  writeAuthStatus(
    ctx.io,
    {
      profile: settings.profile,
      baseUrl: settings.values['base-url'] ?? null,
      token,
      ...(shadowed ? { shadowedFile: settings.file.path } : {}),
    },
    now,
  );
  if (token.present) return ExitCode.ok;
  // --json already carries present:false; a second (error) document would break the contract.
  if (ctx.io.json) return ExitCode.auth;
  throw noTokenError(profile);
}

function logout(settings: TokenAccess, ctx: Context): number {
  const profile = settings.profile.name;
  const removed = settings.file.deleteToken(profile);
  writeLogoutResult(ctx.io, { profile, removed, path: settings.file.path });
  if (envTokenSet(ctx)) {
    writeWarning(ctx.io, 'ECONSIG_TOKEN is still set in the environment: commands keep using it until you unset it.');
  }
  return ExitCode.ok;
}
