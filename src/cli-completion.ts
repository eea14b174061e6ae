/**
 * `econsig completion <bash|zsh|fish>` (issue 24): a shell's completion script, generated
 * from the commander program itself (every command, subcommand and option, said once in
 * cli.ts), so it never falls behind. Options whose value is a file (`<file>`, `<path>`) and
 * commands that take files complete file names; `--profile` completes the profiles of the
 * config file through `econsig completion --profiles`.
 */
import type { Command } from '@commander-js/extra-typings';

export type Shell = 'bash' | 'zsh' | 'fish';

/** One command of the tree: its words (`auth login`), subcommands, options, and what takes files. */
interface CommandSpec {
  path: string;
  subcommands: string[];
  options: string[];
  /** Options whose value is a file or a folder. */
  fileOptions: string[];
  /** Options whose value is something else (not completed). */
  valueOptions: string[];
  /** Its arguments are files (`[file...]`). */
  takesFiles: boolean;
}

type AnyCommand = Command<unknown[], Record<string, unknown>, Record<string, unknown>>;

/** The tree of `program` as specs, parents first; the root's path is ''. */
export function completionSpecs(program: AnyCommand): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const visit = (command: AnyCommand, path: string, inherited: AnyCommand['options']): void => {
    const options = [...inherited, ...command.options];
    const flags = (filter: (placeholder: string) => boolean): string[] =>
      options.flatMap((o) => (o.required || o.optional) && filter(/<([^>]+)>|\[([^\]]+)\]/.exec(o.flags)?.slice(1).find(Boolean) ?? '') ? [o.long, o.short].filter((f): f is string => !!f) : []);
    const isFile = (placeholder: string): boolean => /^(file|path)$/.test(placeholder);
    specs.push({
      path,
      subcommands: command.commands.map((c) => c.name()),
      options: [...options.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f)), '--help'],
      fileOptions: flags(isFile),
      valueOptions: flags((p) => p !== '' && !isFile(p)),
      takesFiles: command.registeredArguments.some((a) => /^(file|files|path)$/.test(a.name())),
    });
    for (const sub of command.commands) visit(sub as AnyCommand, path ? `${path} ${sub.name()}` : sub.name(), path === '' ? command.options : inherited);
  };
  visit(program, '', []);
  return specs;
}

const words = (list: readonly string[]): string => list.join(' ');

function bashScript(specs: readonly CommandSpec[]): string {
  const table = (pick: (s: CommandSpec) => string): string => specs.map((s) => `    '${s.path}') echo '${pick(s)}' ;;`).join('\n');
  return `# econsig completion for bash: source it, or put it in ~/.local/share/bash-completion/completions/econsig
_econsig_subcommands() {
  case "$1" in
${table((s) => words(s.subcommands))}
  esac
}
_econsig_options() {
  case "$1" in
${table((s) => words(s.options))}
  esac
}
_econsig_file_options() {
  case "$1" in
${table((s) => words(s.fileOptions))}
  esac
}
_econsig_value_options() {
  case "$1" in
${table((s) => words(s.valueOptions))}
  esac
}
_econsig_takes_files() {
  case "$1" in
${specs.filter((s) => s.takesFiles).map((s) => `    '${s.path}') return 0 ;;`).join('\n')}
  esac
  return 1
}
_econsig() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case " $(_econsig_subcommands "$path") " in
      *" $word "*) path="\${path:+$path }$word" ;;
    esac
  done
  if [[ "$prev" == "--profile" ]]; then
    COMPREPLY=($(compgen -W "$(econsig completion --profiles 2>/dev/null)" -- "$cur"))
    return
  fi
  if [[ " $(_econsig_file_options "$path") " == *" $prev "* ]]; then
    COMPREPLY=($(compgen -f -- "$cur"))
    return
  fi
  if [[ -n "$prev" && " $(_econsig_value_options "$path") " == *" $prev "* ]]; then
    COMPREPLY=()
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_econsig_options "$path")" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -W "$(_econsig_subcommands "$path")" -- "$cur"))
  if _econsig_takes_files "$path"; then
    COMPREPLY+=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _econsig econsig
`;
}

function fishScript(specs: readonly CommandSpec[]): string {
  const lines = ['# econsig completion for fish: econsig completion fish > ~/.config/fish/completions/econsig.fish', 'complete -c econsig -f'];
  const condition = (spec: CommandSpec): string => {
    if (spec.path === '') return '__fish_use_subcommand';
    const parts = spec.path.split(' ');
    return parts.map((part) => `__fish_seen_subcommand_from ${part}`).join('; and ');
  };
  for (const spec of specs) {
    const when = condition(spec);
    if (spec.subcommands.length > 0) lines.push(`complete -c econsig -n '${when}' -a '${words(spec.subcommands)}'`);
    if (spec.takesFiles) lines.push(`complete -c econsig -n '${when}' -F`);
    for (const flag of spec.options.filter((f) => f.startsWith('--'))) {
      const name = flag.slice(2);
      const value = flag === '--profile' ? " -x -a '(econsig completion --profiles 2>/dev/null)'" : spec.fileOptions.includes(flag) ? ' -r -F' : spec.valueOptions.includes(flag) ? ' -x' : '';
      lines.push(`complete -c econsig -n '${spec.path === '' ? 'true' : when}' -l ${name}${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script for `shell`: zsh runs the bash one through bashcompinit. */
export function completionScript(shell: Shell, specs: readonly CommandSpec[]): string {
  if (shell === 'fish') return fishScript(specs);
  const bash = bashScript(specs);
  return shell === 'bash' ? bash : `# econsig completion for zsh: source it from ~/.zshrc\nautoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n${bash}`;
}
