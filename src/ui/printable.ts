/**
 * Text that came from outside (a webhook payload, a service answer, a file) shown on a
 * terminal: control characters are escaped, so a payload cannot move the cursor, clear
 * the screen or forge a line.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
