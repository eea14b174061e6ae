import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { readTokenFromStdin } from '../../../src/ui/token-input.js';

describe('readTokenFromStdin', () => {
  it('reads to EOF and trims', async () => {
    expect(await readTokenFromStdin(Readable.from(['  tok', 'en-123\n']))).toBe('token-123');
  });

  it('returns an empty string for closed empty stdin', async () => {
    expect(await readTokenFromStdin(Readable.from([]))).toBe('');
  });

  it('fails at once on a terminal instead of waiting', async () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    const started = Date.now();
    await expect(readTokenFromStdin(tty)).rejects.toThrow(UsageError);
    await expect(readTokenFromStdin(tty)).rejects.toMatchObject({
      hint: 'Pipe the token: echo $TOKEN | econsig auth login --with-token',
    });
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('refuses input too large to be a token', async () => {
    await expect(readTokenFromStdin(Readable.from([Buffer.alloc(70 * 1024, 97)]))).rejects.toThrow(/too large/);
  });
});
