import type { AuthInput, ClientCredentialsLogin, Context } from '../cli-inputs.js';
import { ExitCode, UsageError } from '../errors.js';
import { msg } from '../i18n/index.js';
import { parseSettingValue } from '../settings/keys.js';
import { openProfile, resolveSettings, type ResolvedSettings } from '../settings/settings.js';
import { deleteTokenCache } from '../settings/token-cache.js';
import { describeToken, noTokenError, requireToken, resolveToken } from '../settings/token.js';
import {
  writeAuthStatus,
  writeLoginResult,
  writeLogoutResult,
  writeRawToken,
  writeWarning,
} from '../ui/auth-output.js';

/** `econsig auth login|status|logout|token` (docs/cli-contract.md "Commands"). */
export async function run(input: AuthInput, ctx: Context): Promise<number> {
  // Only status shows settings; the others need the profile and its token, so an unrelated
  // bad setting (say ECONSIG_BASE_URL) cannot stop a login or a logout.
  if (input.action === 'status') return status(await resolveSettings({ env: ctx.env, globals: ctx.globals }), ctx);
  const { profile, file, paths } = await openProfile({ env: ctx.env, globals: ctx.globals });
  if (input.action === 'login' && input.clientCredentials) return loginClientCredentials(input.clientCredentials, { profile, file }, ctx);
  // Only a client-credentials profile needs its settings validated to print a token.
  const oauth = file.settings(profile.name)['auth.method'] === 'client-credentials' || (ctx.env.ECONSIG_CLIENT_SECRET ?? '') !== '';
  if (input.action === 'token' && oauth && !envTokenSet(ctx)) return clientCredentialsToken(await resolveSettings({ env: ctx.env, globals: ctx.globals }), ctx);
  const tokenAccess: TokenAccess = { profile, file, token: resolveToken({ env: ctx.env, stored: file.token(profile.name), path: file.path }) };
  switch (input.action) {
    case 'login':
      return login(input.withToken, tokenAccess, ctx);
    case 'logout':
      return logout(tokenAccess, ctx, paths.home);
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
    msg('auth.noTerminalToken'),
    msg('auth.noTerminalTokenHint'),
  );
}

async function login(withToken: boolean, settings: TokenAccess, ctx: Context): Promise<number> {
  const profile = settings.profile.name;
  if (envTokenSet(ctx)) {
    // gh refuses here (cli/cli #2922); we store but say which token will be used.
    writeWarning(ctx.io, msg('auth.envWinsToken'));
  }
  const token = await readToken(withToken, profile, ctx);
  if (token === '') {
    throw new UsageError(msg('auth.tokenEmpty'), msg('auth.tokenEmptyHint'));
  }
  if (/\s/.test(token)) {
    throw new UsageError(
      msg('auth.tokenSpaces'),
      msg('auth.tokenSpacesHint'),
    );
  }
  // The same test as the HTTP client's (service/client.ts): what submit would refuse is
  // refused here, not stored (issue 14).
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError(
      msg('auth.tokenBadChars'),
      msg('auth.tokenBadCharsHint'),
    );
  }
  settings.file.setToken(profile, token);
  writeLoginResult(ctx.io, { profile, path: settings.file.path });
  return ExitCode.ok;
}

async function loginClientCredentials(flags: ClientCredentialsLogin, settings: Pick<TokenAccess, 'profile' | 'file'>, ctx: Context): Promise<number> {
  const profile = settings.profile.name;
  if (flags.tokenUrl === undefined) throw new UsageError(msg('auth.needsTokenUrl'), msg('auth.needsTokenUrlHint'));
  if (flags.clientId === undefined) throw new UsageError(msg('auth.needsClientId'), msg('auth.needsClientIdHint'));
  const tokenUrl = parseSettingValue('auth.token-url', flags.tokenUrl, '--token-url');
  const clientId = parseSettingValue('auth.client-id', flags.clientId, '--client-id');
  const scope = flags.scope === undefined ? undefined : parseSettingValue('auth.scope', flags.scope, '--scope');
  const { promptToken, readTokenFromStdin } = await import('../ui/token-input.js');
  let secret: string;
  if (flags.withSecret) {
    secret = await readTokenFromStdin(ctx.io.stdin, { flag: '--with-secret', name: 'secret', example: 'printf %s "$SECRET" | econsig auth login --client-credentials ... --with-secret' });
  } else if (ctx.io.canPrompt) {
    secret = await promptToken(ctx.io, profile, 'secret');
  } else {
    throw new UsageError(msg('auth.noTerminalSecret'), msg('auth.noTerminalSecretHint'));
  }
  if (secret === '' || /[\r\n]/.test(secret)) {
    throw new UsageError(msg(secret === '' ? 'auth.secretEmpty' : 'auth.secretLines'), msg('auth.secretHint'));
  }
  const { file } = settings;
  file.setSetting(profile, 'auth.method', 'client-credentials');
  file.setSetting(profile, 'auth.token-url', tokenUrl);
  file.setSetting(profile, 'auth.client-id', clientId);
  if (scope !== undefined) file.setSetting(profile, 'auth.scope', scope);
  if (flags.clientAuth !== undefined) file.setSetting(profile, 'auth.client-auth', flags.clientAuth);
  file.setClientSecret(profile, secret);
  writeLoginResult(ctx.io, { profile, path: file.path, what: 'clientCredentials' });
  if (envTokenSet(ctx)) writeWarning(ctx.io, msg('auth.envWinsClient'));
  return ExitCode.ok;
}

/** `auth token` with client credentials: the cached access token, or a fresh one. */
async function clientCredentialsToken(settings: ResolvedSettings, ctx: Context): Promise<number> {
  const { openAuthSession, tokenFailure } = await import('../flows/auth-session.js');
  const session = openAuthSession({ settings, env: ctx.env });
  ctx.defer(() => session.close());
  let token: string;
  try {
    token = await session.tokens.token();
  } catch (error) {
    throw tokenFailure(error, settings.profile.name);
  }
  writeRawToken(ctx.io, { token, source: 'client-credentials' });
  return ExitCode.ok;
}

async function status(settings: ResolvedSettings, ctx: Context): Promise<number> {
  const profile = settings.profile.name;
  const now = new Date();
  const { authStatus } = await import('../flows/auth-status.js');
  const auth = authStatus(settings, ctx.env, now);
  const token = describeToken(settings.token, now);
  const shadowed = settings.token?.source === 'env' && settings.file.token(profile) !== undefined;
  writeAuthStatus(
    ctx.io,
    {
      profile: settings.profile,
      baseUrl: settings.values['base-url'] ?? null,
      token: auth.method === 'token' ? token : auth.token,
      ...(shadowed ? { shadowedFile: settings.file.path } : {}),
      auth,
    },
    now,
  );
  if (auth.problem) return auth.problem.exitCode;
  if (auth.method === 'client-credentials' || token.present) return ExitCode.ok;
  // --json already carries present:false; a second (error) document would break the contract.
  if (ctx.io.json) return ExitCode.auth;
  throw noTokenError(profile);
}

function logout(settings: TokenAccess, ctx: Context, home: string): number {
  const profile = settings.profile.name;
  const hadSecret = settings.file.deleteClientSecret(profile);
  const hadCache = deleteTokenCache(home, profile);
  const removed = settings.file.deleteToken(profile);
  const oauth = hadSecret || hadCache;
  const what = oauth ? (removed ? 'tokenAndOauth' : 'oauth') : 'token';
  writeLogoutResult(ctx.io, { profile, removed: removed || oauth, path: settings.file.path, what });
  if (envTokenSet(ctx)) {
    writeWarning(ctx.io, msg('auth.envStillSet'));
  }
  return ExitCode.ok;
}
