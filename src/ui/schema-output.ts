/** Output of `econsig schema`: the JSON Schema on stdout, indented for people who read it. */
import type { Io } from './io.js';

export function writeSchema(io: Io, schema: object): void {
  io.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
}
