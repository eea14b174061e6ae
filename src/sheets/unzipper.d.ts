/** The part of unzipper (no types of its own) that xlsx-zip.ts uses. */
declare module 'unzipper' {
  import type { Readable } from 'node:stream';

  export const Open: {
    file(path: string): Promise<{ files: Array<{ path: string; type: 'File' | 'Directory'; compressedSize: number; uncompressedSize: number; stream(): Readable }> }>;
  };
}
