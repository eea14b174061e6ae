/**
 * The help in the reader's language, beyond the descriptions (cli.ts names the catalogue key
 * of each where it declares it): commander's own words (titles, "default", "choices") and the
 * examples, whose comments are keys of the catalogue too (area help, src/i18n/help.ts).
 */
import { Help } from '@commander-js/extra-typings';
import { type Lang, type MessageKey, isMessageKey, say } from './i18n/index.js';

/** A key of the help's texts. */
export type HelpKey = Extract<MessageKey, `help.${string}`>;

/** commander's "(default: 4010)", "(choices: "csv", "xlsx")" in `lang`. */
function withExtras(lang: Lang, text: string): string {
  return text.replace(/\b(default|choices): /g, (_, word: string) => `${say(lang, word === 'default' ? 'help.default' : 'help.choices')}: `);
}

/** `[options]`, `[command]`, `<file>`, `[file...]` in `lang`: each bracketed word that has a `help.word_` key. */
function usageWords(lang: Lang, text: string): string {
  return text.replace(/([<[])([a-z]+)((?:\.\.\.)?[>\]])/g, (whole, open: string, word: string, close: string) => {
    const key = `help.word_${word}`;
    return isMessageKey(key) ? `${open}${say(lang, key)}${close}` : whole;
  });
}

/** Overrides for commander's configureHelp: none in English. */
export function helpIn(lang: Lang): Partial<Help> {
  if (lang === 'en') return {};
  const base = Help.prototype;
  return {
    styleTitle(title: string): string {
      const key = `help.title_${title}`;
      return isMessageKey(key) ? say(lang, key) : title;
    },
    commandUsage(command) {
      return usageWords(lang, base.commandUsage.call(this, command));
    },
    subcommandTerm(command) {
      return usageWords(lang, base.subcommandTerm.call(this, command));
    },
    optionTerm(option) {
      return usageWords(lang, base.optionTerm.call(this, option));
    },
    argumentTerm(argument) {
      return usageWords(lang, base.argumentTerm.call(this, argument));
    },
    optionDescription(option) {
      return withExtras(lang, base.optionDescription.call(this, option));
    },
    argumentDescription(argument) {
      return withExtras(lang, base.argumentDescription.call(this, argument));
    },
  };
}

/** The examples block of a command's help: each `# help.ex....` comment said in `lang`. */
export function examplesIn(lang: Lang, lines: readonly string[]): string {
  const said = lines.map((line) => {
    const at = line.indexOf('# ');
    const key = line.slice(at + 2);
    return at >= 0 && isMessageKey(key) ? `${line.slice(0, at + 2)}${say(lang, key)}` : line;
  });
  return `\n${say(lang, 'help.examples')}\n${said.map((line) => `  ${line}`).join('\n')}\n`;
}
