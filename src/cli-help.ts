/**
 * The help in the reader's language. cli.ts keeps writing each command's and option's
 * description in English; in another language the help finds each one in the catalogue
 * (area help, src/i18n/help.ts) by that English text, and commander's own words (titles,
 * "default", "choices") are said too. A description the catalogue lacks stays English
 * (test/cli.test.ts fails for it).
 */
import { Help } from '@commander-js/extra-typings';
import { type Lang, isMessageKey, keyOfEnglish, tr } from './i18n/index.js';

/** An English text of the help in `lang`: its catalogue text, or itself when it has none. */
export function helpText(lang: Lang, english: string): string {
  if (lang === 'en' || english === '') return english;
  const key = keyOfEnglish(english, 'help.');
  return key ? tr(lang, key) : english;
}

/** commander's "(default: 4010)", "(choices: "csv", "xlsx")" after a translated description. */
function withExtras(lang: Lang, full: string, description: string): string {
  const rest = full.startsWith(description) ? full.slice(description.length) : full;
  const extras = rest.replace(/\b(default|choices): /g, (_, word: string) => `${tr(lang, word === 'default' ? 'help.default' : 'help.choices')}: `);
  return full.startsWith(description) ? `${helpText(lang, description)}${extras}` : extras;
}

/** Overrides for commander's configureHelp: none in English. */
export function helpIn(lang: Lang): Partial<Help> {
  if (lang === 'en') return {};
  const base = Help.prototype;
  return {
    styleTitle(title: string): string {
      const key = `help.title_${title}`;
      return isMessageKey(key) ? tr(lang, key) : title;
    },
    commandDescription(cmd) {
      return helpText(lang, base.commandDescription.call(this, cmd));
    },
    subcommandDescription(cmd) {
      return helpText(lang, base.subcommandDescription.call(this, cmd));
    },
    optionDescription(option) {
      return withExtras(lang, base.optionDescription.call(this, option), option.description);
    },
    argumentDescription(argument) {
      return withExtras(lang, base.argumentDescription.call(this, argument), argument.description);
    },
  };
}

/** The examples block of a command's help, its comments in `lang`. */
export function examplesIn(lang: Lang, lines: readonly string[]): string {
  const said = lines.map((line) => {
    const at = line.indexOf('# ');
    return at < 0 ? line : `${line.slice(0, at + 2)}${helpText(lang, line.slice(at + 2))}`;
  });
  return `\n${helpText(lang, 'Examples:')}\n${said.map((line) => `  ${line}`).join('\n')}\n`;
}
