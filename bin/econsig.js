#!/usr/bin/env node
// Node 22.1+ can cache compiled code between runs; Node 20 has no such API.
import module from 'node:module';
import { readFileSync } from 'node:fs';

if (typeof module.enableCompileCache === 'function') {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache folder must never stop the CLI.
  }
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Scripts call this often; it needs nothing but package.json.
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  const { main } = await import('../dist/cli.js');
  process.exitCode = await main(process.argv);
}
