/**
 * The one place that decides how secrets and personal data are hidden: secrets shown
 * masked (status, config, --dry-run) or cut out of text that may have passed near the
 * Authorization header (errors, logs); a person's data (LGPD) masked in every message, line
 * and log (the second half of this file, docs/privacy.md).
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
 * Whether a request header carries a credential or a signature: Authorization (and its proxy's),
 * cookies, any signature (`webhook-signature`, `x-hub-signature-256`) and any secret-named header
 * (`x-api-key`, `x-webhook-secret`, isSecretName).
 */
export function isSecretHeader(name: string): boolean {
  return /^(proxy-)?authorization$|^(set-)?cookie$|signature/i.test(name) || isSecretName(name);
}

/**
 * Headers as they may be kept or shown (`events show`, the record of a delivery): each credential
 * and signature `[redacted]`, and each of `credentials` (a header named by configuration, such as
 * `webhook.api-key-header`, whatever its name), matched without regard to case.
 */
export function redactHeaders(headers: Readonly<Record<string, string>>, credentials: readonly string[] = []): Record<string, string> {
  const named = new Set(credentials.map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, isSecretHeader(name) || named.has(name.toLowerCase()) ? REDACTED : value]));
}

/**
 * A command line as it may be recorded (a run's `command`) and shown: the value of every
 * secret-named flag (`--token x`, `--secret=x`) cut out, and each argument redacted as text
 * that may hold a credential (redactToken: a bearer, a secret-named field; a URL's password).
 * Arguments with spaces are quoted, so the line reads as it was typed.
 */
export function redactCommandLine(args: readonly string[]): string {
  const shown: string[] = [];
  let hideNext = false;
  for (const arg of args) {
    const flag = /^--?([\w-]+)(=.*)?$/s.exec(arg);
    if (hideNext) shown.push(REDACTED);
    else if (flag && isSecretName(flag[1] as string) && flag[2] !== undefined) shown.push(`--${flag[1]}=${REDACTED}`);
    else shown.push(redactConnectionStringIn(redactToken(arg, undefined), undefined));
    hideNext = !hideNext && flag !== null && isSecretName(flag[1] as string) && flag[2] === undefined && !/^--(with|no)-/.test(arg);
  }
  return ['econsig', ...shown].map((arg) => (/^[\w@%+=:,./\[\]-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`)).join(' ');
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

// ---------------------------------------------------------------------------
// Personal data (LGPD, docs/privacy.md): one mask per kind of value, the same everywhere,
// since two masks of one CPF shown in two places would give most of its digits away.
// ---------------------------------------------------------------------------

/** The kinds of a person's data a message or a payload can carry; `text` is free text from outside that may quote any. */
export type PersonalKind = 'cpf' | 'account' | 'pixKey' | 'phone' | 'email' | 'document' | 'name' | 'text';

const CPF_PUNCTUATION = /[.\-\s]/g;
const ELEVEN_DIGITS = /^\d{11}$/;

/** The last few characters: at most 4, and never more than half of the value. */
function lastFew(value: string): string {
  const keep = Math.min(4, Math.floor(value.length / 2));
  return `****${keep > 0 ? value.slice(-keep) : ''}`;
}

/** A CPF, digits or punctuated, as `***.456.789-**`: the first three and the last two digits hidden. */
export function maskCpf(value: string): string {
  const digits = value.replace(CPF_PUNCTUATION, '');
  if (!ELEVEN_DIGITS.test(digits)) return lastFew(value);
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
}

/** A bank account (`1234567-8`) as `****67-8`: at most its last 4 characters. */
export function maskAccount(value: string): string {
  return lastFew(value);
}

/** An identity document's number (RG, CNH) as `****6789`: at most its last 4 characters. */
export function maskDocumentNumber(value: string): string {
  return lastFew(value);
}

/** A phone number as `+55****5678`: the country code of a Brazilian number, and the last 4 digits. */
export function maskPhone(value: string): string {
  const digits = value.replace(/\D/g, '');
  const prefix = value.startsWith('+55') ? '+55' : value.startsWith('+') ? '+' : '';
  return `${prefix}${lastFew(prefix === '+55' ? digits.slice(2) : digits)}`;
}

/** An e-mail as `m***@***.com`: the first letter and the top-level domain. */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at < 1) return lastFew(value);
  const domain = value.slice(at + 1);
  const top = domain.includes('.') ? domain.slice(domain.lastIndexOf('.')) : '';
  return `${value[0]}***@***${top}`;
}

/** A Pix key masked as what it is: a CPF key as a CPF, a phone or e-mail key as such, a random key to its last 4 characters. */
export function maskPixKey(value: string): string {
  if (ELEVEN_DIGITS.test(value.replace(CPF_PUNCTUATION, '')) && !value.startsWith('+')) return maskCpf(value);
  if (value.includes('@')) return maskEmail(value);
  if (value.startsWith('+')) return maskPhone(value);
  return lastFew(value);
}

/** A person's name as its initials: `Maria da Silva` → `M. d. S.`. */
export function maskName(value: string): string {
  return value
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => `${word[0]}.`)
    .join(' ');
}

// In free text: a punctuated CPF, any run of exactly 11 digits (a CPF, or a phone without
// its +55: both a person's), an e-mail, an international phone number.
const CPF_IN_TEXT = /(?<![\d.])\d{3}\.\d{3}\.\d{3}-\d{2}(?!\d)|(?<![\d+])\d{11}(?!\d)/g;
const EMAIL_IN_TEXT = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const PHONE_IN_TEXT = /\+\d{10,14}(?!\d)/g;

/** Free text from outside (a service's error, a webhook's reason) with every CPF, e-mail and phone number in it masked. */
export function maskPersonalText(text: string): string {
  return text.replace(CPF_IN_TEXT, maskCpf).replace(EMAIL_IN_TEXT, maskEmail).replace(PHONE_IN_TEXT, maskPhone);
}

/** A value of a person's data, masked as its kind is. */
export function maskPersonal(kind: PersonalKind, value: string): string {
  switch (kind) {
    case 'cpf':
      return maskCpf(value);
    case 'account':
      return maskAccount(value);
    case 'pixKey':
      return maskPixKey(value);
    case 'phone':
      return maskPhone(value);
    case 'email':
      return maskEmail(value);
    case 'document':
      return maskDocumentNumber(value);
    case 'name':
      return maskName(value);
    case 'text':
      return maskPersonalText(value);
  }
}

/**
 * The kind of a person's data a field of this name holds, by the names the service and
 * webhook payloads use (`parent`: the object it sits in, for `documento.numero`);
 * undefined for a field that holds none.
 */
export function personalKindOfField(name: string, parent?: string): PersonalKind | undefined {
  switch (name) {
    case 'cpf':
      return 'cpf';
    case 'conta':
      return 'account';
    case 'chavePix':
      return 'pixKey';
    case 'telefone':
    case 'celular':
      return 'phone';
    case 'email':
      return 'email';
    case 'nome':
    case 'nomeCompleto':
      return 'name';
    case 'numero':
      return parent === 'documento' ? 'document' : undefined;
    default:
      return undefined;
  }
}

/** The kind of a person's data at a dotted path of a submission (`pessoa.documento.numero`), if any. */
export function personalKindOfPath(path: string): PersonalKind | undefined {
  const parts = path.split('.');
  return personalKindOfField(parts[parts.length - 1] ?? '', parts[parts.length - 2]);
}

/**
 * A JSON value (a webhook payload) with a person's data masked: each field named as one
 * (personalKindOfField) as its kind, every other text as free text.
 */
export function maskPersonalJson(value: unknown, name = '', parent = ''): unknown {
  const kind = personalKindOfField(name, parent);
  if (typeof value === 'string') return maskPersonal(kind ?? 'text', value);
  // A CPF or an account sent as a number is masked all the same (as text, which it becomes).
  if (typeof value === 'number' && kind !== undefined) return maskPersonal(kind, String(value));
  if (Array.isArray(value)) return value.map((item) => maskPersonalJson(item, name, parent));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, maskPersonalJson(child, key, name)]));
  }
  return value;
}
