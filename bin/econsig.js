#!/usr/bin/env node
// Node 22.1+ can cache compiled code between runs; Node 20 has no such API.
import module from 'node:module';

if (typeof module.enableCompileCache === 'function') {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache folder must never stop the CLI.
  }
}

const { main } = await import('../dist/cli.js');
process.exitCode = await main(process.argv);
