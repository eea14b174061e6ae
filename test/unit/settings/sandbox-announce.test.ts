import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSandbox, readAnnouncement } from '../../../src/settings/sandbox-announce.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'econsig-announce-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('a sandbox announced in the home (sandbox trigger finds it)', () => {
  it('is read back while its process runs, the owner\'s file only, and removed when it stops', async () => {
    const remove = await announceSandbox(home, { url: 'http://127.0.0.1:4010', token: 'sbx_1', pid: process.pid });
    expect(readAnnouncement(home)).toEqual({ url: 'http://127.0.0.1:4010', token: 'sbx_1', pid: process.pid });
    if (process.platform !== 'win32') expect(statSync(join(home, 'sandbox.json')).mode & 0o777).toBe(0o600);
    remove();
    expect(readAnnouncement(home)).toBeUndefined();
  });

  it('one left by a process that is gone, or unreadable, is ignored', () => {
    writeFileSync(join(home, 'sandbox.json'), JSON.stringify({ url: 'http://127.0.0.1:4010', token: 'sbx_1', pid: 2 ** 22 + 12345 }));
    expect(readAnnouncement(home)).toBeUndefined();
    writeFileSync(join(home, 'sandbox.json'), '{not json');
    expect(readAnnouncement(home)).toBeUndefined();
  });
});
