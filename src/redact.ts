/**
 * The one place that decides how secrets and personal numbers are hidden: secrets shown
 * masked (status, config, --dry-run) or cut out of text that may have passed near the
 * Authorization header (errors, logs); a person's numbers partly starred on screen.
 */

/**
 * How a secret (token, webhook secret) is shown anywhere: at most its last 4 characters,
 * and none of a short one, where 4 characters would give too much away.
 */
export function maskSecret(value: string): string {
  return value.length < 12 ? '****' : `****${value.slice(-4)}`;
}

const MIN_REDACTED_LENGTH = 6;

/**
 * Replace every occurrence of `token`, and anything shaped like a bearer credential, with
 * `[redacted]`. Use it on any text that could have passed near the Authorization header.
 */
export function redactToken(text: string, token: string | undefined): string {
  let out = text;
  const secret = token?.trim();
  // A token of a few characters would turn every word that contains them into "[redacted]"
  // and protects nothing; real bearer tokens are long.
  if (secret && secret.length >= MIN_REDACTED_LENGTH) out = out.split(secret).join('[redacted]');
  return out.replace(/(Bearer\s+)(?!\[redacted\])[^\s"',;]+/gi, '$1[redacted]');
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

/**
 * A database URL as it may be shown: without its password (`postgres://user@host/db`).
 * Text that is not a URL is returned with any `scheme://user:password@` cut to `user@`.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '';
    return parsed.toString();
  } catch {
    return redactUrlsIn(url, undefined);
  }
}

/**
 * Cut the password of `url` (as written, and URL-decoded) and of anything shaped like
 * `scheme://user:password@` out of `text`: for errors and logs of a database client.
 */
export function redactUrlsIn(text: string, url: string | undefined): string {
  let out = text;
  if (url !== undefined) {
    let password = '';
    try {
      password = new URL(url).password;
    } catch {
      // An unparsable URL has no password we can find; the pattern below still applies.
    }
    for (const secret of new Set([password, safeDecode(password)])) {
      if (secret.length >= 4) out = out.split(secret).join('[redacted]');
    }
  }
  return out.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]*@/gi, '$1@');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
