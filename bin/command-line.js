// What bin/econsig.js needs to know of a command line before the program is loaded.
'use strict';

/**
 * Whether the command is certainly validate: nothing before it but the global options of
 * src/cli.ts. Anything else, or anything this is not sure of, is "no"; the answer only
 * picks a faster way to run the same program.
 */
function isValidateCommand(args) {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === 'validate') return true;
    if (arg === '--json' || arg === '--no-color' || arg === '--verbose') continue;
    if (arg === '--profile' || arg === '--base-url') {
      i++; // its value, whatever it says
      continue;
    }
    if (arg.startsWith('--profile=') || arg.startsWith('--base-url=')) continue;
    return false;
  }
  return false;
}

exports.isValidateCommand = isValidateCommand;
