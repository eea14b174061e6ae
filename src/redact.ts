/**
 * The one place that decides how secrets and personal numbers are hidden: secrets shown
 * masked (status, config, --dry-run) or cut out of text that may have passed near the
 * Authorization header (errors, logs); a person's numbers partly starred on screen.
 */

/** What a secret cut out of text or a connection string is replaced with. */
const REDACTED = '[redacted]';

/**
 * How a secret (token, webhook secret) is shown anywhere: at most its last 4 characters,
 * and none of a short one, where 4 characters would give too much away.
 */
export function maskSecret(value: string): string {
  return value.length < 12 ? '****' : `****${value.slice(-4)}`;
}

const MIN_REDACTED_LENGTH = 6;

/**
 * Replace every occurrence of `token`, anything shaped like a bearer credential and the
 * value of every secret-named field (redactSecretFields) with `[redacted]`. Use it on any
 * text that could have passed near the Authorization header.
 */
export function redactToken(text: string, token: string | undefined): string {
  let out = text;
  const secret = token?.trim();
  // A token of a few characters would turn every word that contains them into "[redacted]"
  // and protects nothing; real bearer tokens are long.
  if (secret && secret.length >= MIN_REDACTED_LENGTH) out = out.split(secret).join(REDACTED);
  return redactSecretFields(out.replace(/(Bearer\s+)(?!\[redacted\])[^\s"',;]+/gi, `$1${REDACTED}`));
}

/**
 * Whether a field or parameter of this name holds a secret: password, sslpassword, passfile,
 * access_token, client_secret, sslkey, api_key, credentials...
 */
export function isSecretName(name: string): boolean {
  return /pass|pwd|secret|token(?!_type)|key|credential/i.test(name);
}

/**
 * `text` with the value of every secret-named field cut out, as a query or a form writes it
 * (`password=...`, `&access_token=...`, libpq's `password='...'`) and as JSON does
 * (`"access_token": "..."`).
 */
export function redactSecretFields(text: string): string {
  return text
    .replace(/(^|[?&;,\s])([\w.-]+)=('(?:[^'\\]|\\.)*'|[^&;,\s#"']+)/g, (all, before: string, name: string) =>
      isSecretName(name) ? `${before}${name}=${REDACTED}` : all,
    )
    .replace(/"([\w.-]{1,64})"(\s*:\s*)"(?:[^"\\]|\\.)*"/g, (all, name: string, colon: string) =>
      isSecretName(name) ? `"${name}"${colon}"${REDACTED}"` : all,
    );
}

/**
 * A number that identifies a person or an account, for a screen others may see: keep
 * `start` leading and `end` trailing characters, star the rest (at least a third is starred).
 */
export function maskMiddle(value: string, start: number, end: number): string {
  const hidden = value.length - start - end;
  if (hidden < Math.ceil(value.length / 3)) {
    const keep = Math.floor(value.length / 4);
    return '*'.repeat(value.length - keep) + value.slice(value.length - keep);
  }
  return value.slice(0, start) + '*'.repeat(hidden) + value.slice(value.length - end);
}

/** sslcert and sslrootcert name files; a certificate pasted in their place is not shown either. */
const CONTENT_PARAMS = new Set(['sslcert', 'sslrootcert']);
const isContent = (value: string): boolean => /-----BEGIN|[\r\n]/.test(value) || value.length > 1024;

function hidesParam(name: string, value: string): boolean {
  return isSecretName(name) || (CONTENT_PARAMS.has(name.toLowerCase()) && isContent(value));
}

/**
 * A connection string (the database URL) as it may be shown anywhere (config, doctor, errors,
 * logs): without its user-info password (`postgres://user@host/db`), and with the value of
 * every secret-bearing parameter (`password`, `sslpassword`, `sslkey`, a certificate's
 * content...) replaced by `[redacted]`. Text that is not a URL is redacted as text
 * (redactConnectionStringIn).
 */
export function redactConnectionString(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactConnectionStringIn(url, undefined);
  }
  const params = parsed.search.slice(1).split('&');
  const shownParams = params.map((param) => {
    const [name = '', value] = splitParam(param);
    return value !== undefined && hidesParam(formDecode(name), formDecode(value)) ? `${name}=${REDACTED}` : param;
  });
  if (parsed.password === '' && shownParams.every((param, i) => param === params[i])) return url;
  parsed.password = '';
  if (parsed.search !== '') parsed.search = shownParams.join('&');
  return parsed.toString();
}

/**
 * `text` (an error, a log line) with the secrets of connection string `url` cut out, as
 * written and decoded, then anything shaped like `scheme://user:password@` or a secret-named
 * field (redactSecretFields): for errors and logs of a database client.
 */
export function redactConnectionStringIn(text: string, url: string | undefined): string {
  let out = text;
  for (const secret of url === undefined ? [] : connectionSecrets(url)) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return redactSecretFields(out.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]*@/gi, '$1@'));
}

/** The secrets a connection string holds, as written and decoded, longest first (so none is cut in part). */
function connectionSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // An unparsable URL has no secrets we can find; the patterns still apply.
    return [];
  }
  const found = [parsed.password, uriDecode(parsed.password)];
  for (const param of parsed.search.slice(1).split('&')) {
    const [name = '', value] = splitParam(param);
    // node-postgres reads parameters as a form does (`+` is a space): it may quote that form.
    if (value !== undefined && hidesParam(formDecode(name), formDecode(value))) found.push(value, uriDecode(value), formDecode(value));
  }
  return [...new Set(found)].sort((a, b) => b.length - a.length);
}

function splitParam(param: string): [string, string | undefined] {
  const at = param.indexOf('=');
  return at < 0 ? [param, undefined] : [param.slice(0, at), param.slice(at + 1)];
}

function uriDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function formDecode(text: string): string {
  return uriDecode(text.replace(/\+/g, ' '));
}
