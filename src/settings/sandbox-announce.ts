/**
 * A running `econsig sandbox` says where it is and which token it takes in the home
 * (`sandbox.json`, 0600 through the one safe writer), so `econsig sandbox trigger` on this
 * machine finds it without flags. Removed when the sandbox stops; one left by a sandbox that
 * was killed names a process that is gone, and is ignored.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile, writeFileSafely } from '../safe-file.js';
import { ensureHome } from './home.js';

export interface SandboxAnnouncement {
  url: string;
  token: string;
  pid: number;
}

const announcementPath = (home: string): string => join(home, 'sandbox.json');

export async function announceSandbox(home: string, announcement: SandboxAnnouncement): Promise<() => void> {
  await ensureHome(home);
  const path = announcementPath(home);
  writeFileSafely(path, `${JSON.stringify(announcement)}\n`);
  return () => {
    // Only our own: a sandbox started later in the same home announced itself since.
    if (readAnnouncement(home)?.pid === announcement.pid) rmSync(path, { force: true });
  };
}

/** The sandbox announced in this home, if its process still runs. */
export function readAnnouncement(home: string): SandboxAnnouncement | undefined {
  let parsed: Partial<SandboxAnnouncement>;
  try {
    // A FIFO or a huge file planted there is refused (and then ignored), never read.
    parsed = JSON.parse(readRegularFile(announcementPath(home)).toString('utf8')) as Partial<SandboxAnnouncement>;
  } catch {
    return undefined;
  }
  if (typeof parsed.url !== 'string' || typeof parsed.token !== 'string' || typeof parsed.pid !== 'number') return undefined;
  try {
    process.kill(parsed.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return { url: parsed.url, token: parsed.token, pid: parsed.pid };
}
