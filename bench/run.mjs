// npm run bench: every benchmark, each measured side by side with its reference in the
// same run. Figures are medians; the machine is shared and noisy, so read the ratios.
import { existsSync } from 'node:fs';
import { benchStartup, printStartup } from './startup.mjs';
import { benchValidate, printValidate } from './validate.mjs';

const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);

console.log(`# econsig bench — node ${process.version}, ${new Date().toISOString()}`);
if (wanted('startup')) printStartup(await benchStartup());
if (wanted('validate')) printValidate(await benchValidate());
for (const [name, file, fn, print] of [
  ['submit', './submit.mjs', 'benchSubmit', 'printSubmit'],
  ['listener', './listener.mjs', 'benchListener', 'printListener'],
  ['sheets', './sheets.mjs', 'benchSheets', 'printSheets'],
  ['back-office', './back-office.mjs', 'benchBackOffice', 'printBackOffice'],
  ['wait', './wait.mjs', 'benchWait', 'printWait'],
  ['team', './team.mjs', 'benchTeam', 'printTeam'],
  ['store', './store.mjs', 'benchStore', 'printStore'],
  ['events', './events.mjs', 'benchEvents', 'printEvents'],
  ['exe', './exe.mjs', 'benchExe', 'printExe'],
  ['inputs', './inputs.mjs', 'benchInputs', 'printInputs'],
]) {
  if (!wanted(name) || !existsSync(new URL(file, import.meta.url))) continue;
  const mod = await import(file);
  const result = await mod[fn]();
  if (mod[print]) mod[print](result);
  else console.log(JSON.stringify(result, null, 2));
}
