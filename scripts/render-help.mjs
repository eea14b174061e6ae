// Renders `econsig --help` once at build time into dist/help.txt, so the most common
// help request needs no commander at run time (start-up goal: within 1.3x of bare node).
// The text is rendered at 80 columns; bin/econsig.js uses it only where that fits.
import { writeFileSync } from 'node:fs';
import { renderTopLevelHelp } from '../dist/cli.js';

writeFileSync(new URL('../dist/help.txt', import.meta.url), renderTopLevelHelp());
