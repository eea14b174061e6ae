/**
 * How a test waits: for the event or the count it means (a request count, a line on a
 * stream, a file gone), asked again every few milliseconds, never for a fixed time. The
 * limit only turns a wait that would hang into a failure that names what did not happen.
 */
export async function waitFor<T>(check: () => T | Promise<T>, timeoutMs = 5_000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`not within ${timeoutMs} ms: ${String(check)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
