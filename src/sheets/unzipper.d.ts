/** The part of unzipper (no types of its own) that xlsx-merges.ts uses. */
declare module 'unzipper' {
  import type { Readable } from 'node:stream';

  export const Open: {
    file(path: string): Promise<{ files: Array<{ path: string; stream(): Readable }> }>;
  };
}
