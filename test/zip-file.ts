/**
 * Zips for the hostile-workbook tests: the parts of a fixture workbook, some replaced (a
 * sheet that inflates hugely, a cell of megabytes). Written by hand (local headers, central
 * directory, end record; deflate from node:zlib) so that a test can also write what no zip
 * library would: sizes that lie.
 */
import { writeFileSync } from 'node:fs';
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipPart {
  name: string;
  data: Buffer;
  /** Already deflated (a bomb built from its compressed form); `size` then says its inflated size. */
  deflated?: boolean;
  size?: number;
}

/** Letters deflate cannot shrink much (a pseudo-random run): a cell whose own limit is met before a bomb's. */
export function noise(bytes: number): string {
  const letters = Buffer.alloc(bytes);
  let seed = 7;
  for (let i = 0; i < bytes; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    letters[i] = 97 + ((seed >>> 16) % 26);
  }
  return letters.toString('latin1');
}

/** The parts of a zip, as unzipper reads its central directory. */
export async function partsOf(path: string): Promise<ZipPart[]> {
  const { default: unzipper } = (await import('unzipper')) as unknown as { default: { Open: { file(p: string): Promise<{ files: Array<{ path: string; type: string; buffer(): Promise<Buffer> }> }> } } };
  const directory = await unzipper.Open.file(path);
  const parts: ZipPart[] = [];
  for (const file of directory.files) if (file.type === 'File') parts.push({ name: file.path, data: await file.buffer() });
  return parts;
}

/** Write `parts` as a zip, each deflated. */
export function writeZip(path: string, parts: readonly ZipPart[]): void {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const body = part.deflated ? part.data : deflateRawSync(part.data);
    const size = part.size ?? part.data.length;
    const crc = part.deflated ? 0 : crc32(part.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(body.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(path, Buffer.concat([...locals, directory, end]));
}
