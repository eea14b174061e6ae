/**
 * The submission wizard (`econsig submit` on a terminal with no file, or `-i`): asks for each
 * field in the order a clerk has the papers, checks every answer with the rules `validate`
 * uses, shows a masked summary, and hands the normalised submission back to the submit flow.
 * It sends nothing itself.
 */
import { foldAccents, searchBanks } from '../../domain/banks.js';
import { UF_NAMES, UFS, type Uf } from '../../domain/brazil.js';
import type { Issue } from '../../domain/normalize.js';
import { cnhProblem, ESTADOS_CIVIS, type FieldPath, TIPOS_CONTA, TIPOS_DOCUMENTO } from '../../domain/submission.js';
import { validateSubmission } from '../../domain/validate.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { type Lang, type Value, msg, say } from '../../i18n/index.js';
import type { Note } from '../../domain/normalize.js';
import type { Io } from '../io.js';
import { createPrompts, PromptCancelledError, type PromptChoice, type WizardPrompts } from '../prompts.js';
import { createTheme, type Theme } from '../theme.js';
import { typeAhead } from '../type-ahead.js';
import { writeWrapped } from '../wrap.js';
import {
  checkField,
  type Draft,
  fieldKind,
  keepPayoutFields,
  OPTIONAL_FIELDS,
  payoutFields,
  payoutModeOf,
  readPrefill,
  SECTIONS,
  sectionOf,
  toSubmission,
} from './fields.js';
import {
  choiceLabel,
  fieldLabel,
  fieldQuestion,
  listHelp,
  type MenuAction,
  type PayoutMode,
  payoutLabel,
  type SectionId,
  sectionTitle,
} from './messages.js';
import { type Keeper, saveDraft, saveToChosenFile } from './saving.js';
import { renderSummary } from './summary.js';

export type { WizardPrompts } from '../prompts.js';

export type WizardResult =
  | { action: 'submit'; submission: Record<string, unknown> }
  | { action: 'saved'; path: string }
  | { action: 'quit' };

export interface WizardOptions {
  io: Io;
  lang: Lang;
  now: Date;
  /** Parsed JSON of `--file` with `-i`: only what is missing or wrong is asked. */
  prefill?: unknown;
  /** `--save`: the path offered when saving. */
  savePath?: string;
  /** Injectable for tests; default the real @inquirer prompts, imported when first shown. */
  prompts?: WizardPrompts;
  /**
   * After the service refused a send: the fields it named, with its message. They are asked
   * again (their value offered), and the rest of `prefill` is kept.
   */
  serviceRejected?: ReadonlyMap<FieldPath, Value>;
  /** The run's signal: SIGTERM at a prompt leaves as Ctrl-C does. */
  signal?: AbortSignal;
  /** Where a draft is written when the wizard is left with work in it (default: the current folder). */
  draftDir?: string;
  /** The draft the wizard resumed (`--file <draft>`): a new draft replaces it. */
  draftFrom?: string;
}

/**
 * Run the wizard. Resolves with what the clerk chose; rejects with a UsageError (exit 2)
 * when there is no terminal, and with an InterruptedError (exit 130) after Ctrl-C or
 * SIGTERM, once what was entered is saved as a draft.
 */
export async function runWizard(options: WizardOptions): Promise<WizardResult> {
  const { io, lang } = options;
  if (!io.canPrompt) throw new UsageError(msg('wizard.noTerminal'), msg('wizard.noTerminalHint'));
  const theme = createTheme(io);
  // Keys typed ahead reach the next fields in order (src/ui/type-ahead.ts), while the wizard asks.
  const keys = options.prompts ? undefined : typeAhead(io.stdin);
  const prompts = options.prompts ?? createPrompts({ ...io, lang }, { dim: theme.muted, ...(options.signal ? { signal: options.signal } : {}), ...(keys ? { keys } : {}) });
  const wizard = new Wizard(options, prompts, theme);
  try {
    return await wizard.run();
  } catch (error) {
    if (error instanceof PromptCancelledError) return wizard.leave();
    throw error;
  } finally {
    keys?.stop();
  }
}

const UF_CHOICES: readonly PromptChoice<Uf>[] = UFS.map((uf) => ({ value: uf, name: `${uf}  ${UF_NAMES[uf]}` }));


/** The UFs whose code or name matches what is typed (accents ignored). */
export function searchUfs(term: string): readonly PromptChoice<Uf>[] {
  const wanted = foldAccents(term.trim());
  if (!wanted) return UF_CHOICES;
  const byCode = UF_CHOICES.filter((c) => foldAccents(c.value).startsWith(wanted));
  const byName = UF_CHOICES.filter((c) => !byCode.includes(c) && foldAccents(UF_NAMES[c.value]).includes(wanted));
  return [...byCode, ...byName];
}

const SELECT_VALUES: Partial<Record<FieldPath, readonly string[]>> = {
  'pessoa.documento.tipoDocumento': TIPOS_DOCUMENTO,
  'pessoa.estadoCivil': ESTADOS_CIVIS,
  'contaBancaria.tipo': TIPOS_CONTA,
};

const lastSegment = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

class Wizard {
  private readonly draft: Draft = new Map();
  private readonly rejected = new Map<FieldPath, string>();
  private readonly serviceRejected: Map<FieldPath, Value>;
  private readonly prefilled: boolean;
  private prefillPayout: PayoutMode | undefined;
  /** The answer last warned about, per field: the same again keeps it. */
  private readonly warned = new Map<FieldPath, string>();
  /** The summary shows masked digits in full (the menu's reveal choice). */
  private reveal = false;

  constructor(
    private readonly options: WizardOptions,
    private readonly prompts: WizardPrompts,
    private readonly theme: Theme,
  ) {
    this.prefilled = options.prefill !== undefined;
    this.serviceRejected = new Map(options.serviceRejected ?? []);
    if (this.prefilled) {
      const prefill = readPrefill(options.prefill, options.lang);
      for (const [path, value] of prefill.draft) this.draft.set(path, value);
      for (const [path, message] of prefill.rejected) this.rejected.set(path, message);
      this.prefillPayout = prefill.payout;
    }
  }

  private get lang(): Lang {
    return this.options.lang;
  }

  private say(line = ''): void {
    writeWrapped(this.options.io.stderr, `${line}\n`);
  }

  async run(): Promise<WizardResult> {
    this.say(this.theme.muted(say(this.lang, 'wizard.intro')));
    if (this.serviceRejected.size > 0) this.say(this.theme.muted(say(this.lang, 'wizard.fixIntro')));
    else if (this.prefilled) this.say(this.theme.muted(say(this.lang, 'wizard.prefilled', { n: this.draft.size })));
    for (const section of SECTIONS) await this.fillSection(section.id, 'fill');

    for (;;) {
      const result = validateSubmission(toSubmission(this.draft), { now: this.options.now });
      const failing = SECTIONS.find((section) => result.errors.some((e) => sectionOf(e.path) === section.id));
      if (failing) {
        // Only a rule this wizard does not check per section could land here; back to it.
        this.showErrors(failing.id, result.errors);
        await this.fillSection(failing.id, 'edit');
        continue;
      }
      if (!result.value) throw new Error(`wizard: the submission does not validate: ${JSON.stringify(result.errors)}`);
      this.say();
      const { rows, columns } = this.options.io.stderr as { rows?: number; columns?: number };
      const size = { ...(rows ? { rows } : {}), ...(columns ? { columns } : {}) };
      for (const line of renderSummary(this.draft, this.lang, this.theme, result.warnings, { reveal: this.reveal, ...size })) this.say(line);
      this.say();
      const action = await this.prompts.select<MenuAction>({
        name: 'menu',
        message: say(this.lang, 'wizard.menu'),
        help: listHelp(this.lang),
        // An Enter typed ahead is not a Submit: the clerk sees the summary first.
        fresh: true,
        choices: [
          { value: 'submit', name: say(this.lang, 'wizard.menuSubmit') },
          { value: 'edit', name: say(this.lang, 'wizard.menuEdit') },
          { value: 'reveal', name: say(this.lang, this.reveal ? 'wizard.menuHide' : 'wizard.menuReveal') },
          { value: 'save', name: say(this.lang, 'wizard.menuSave') },
          { value: 'quit', name: say(this.lang, 'wizard.menuQuit') },
        ],
      });
      if (action === 'submit') return { action, submission: result.value as Record<string, unknown> };
      if (action === 'reveal') {
        // To check the masked digits against the paper form; hidden again on the next choice.
        this.reveal = !this.reveal;
        continue;
      }
      this.reveal = false;
      if (action === 'quit') {
        if (await this.prompts.confirm({ name: 'quit-confirm', message: say(this.lang, 'wizard.quitConfirm'), default: false })) return { action };
        continue;
      }
      if (action === 'save') return { action: 'saved', path: await this.save() };
      const section = await this.prompts.select<SectionId | 'back'>({
        name: 'edit',
        message: say(this.lang, 'wizard.editWhich'),
        help: listHelp(this.lang),
        choices: [...SECTIONS.map((s) => ({ value: s.id, name: sectionTitle(this.lang, s.id) })), { value: 'back' as const, name: say(this.lang, 'wizard.editBack') }],
      });
      if (section !== 'back') await this.fillSection(section, 'edit');
    }
  }

  /** After Ctrl-C or SIGTERM: save what was entered as a draft, without asking, and leave (exit 130). */
  async leave(): Promise<never> {
    this.say();
    if (this.draft.size === 0) throw new InterruptedError(msg('wizard.cancelled'));
    const path = await this.saveDraft();
    throw new InterruptedError(path ? msg('wizard.cancelledSaved', { path }) : msg('wizard.cancelled'));
  }

  /** Write what was entered to a new draft file without asking (saving.ts); the path, or undefined. */
  saveDraft(): Promise<string | undefined> {
    return saveDraft(this.keeper, toSubmission(this.draft), this.options.draftDir ?? process.cwd(), this.options.draftFrom);
  }

  private get keeper(): Keeper {
    return { io: this.options.io, lang: this.lang, theme: this.theme, now: this.options.now };
  }

  /** Ask a section: in 'fill' only what is missing or was rejected, in 'edit' every field with its current value. */
  private async fillSection(id: SectionId, mode: 'fill' | 'edit'): Promise<void> {
    let current = mode;
    for (;;) {
      if (id === 'payout') {
        await this.askPayout(current);
      } else {
        const fields = SECTIONS.find((s) => s.id === id)?.fields ?? [];
        const asked = fields.filter((path) => current === 'edit' || this.missing(path));
        if (asked.length) this.say(`\n${this.theme.strong(sectionTitle(this.lang, id))}`);
        for (const path of asked) await this.askField(path);
      }
      // Rules over several fields (CNH check digits, a future issue date) from the same
      // validateSubmission, so the clerk corrects them while the papers are at hand.
      const errors = validateSubmission(toSubmission(this.draft), { now: this.options.now }).errors.filter(
        (e) => sectionOf(e.path) === id,
      );
      if (!errors.length) return;
      this.showErrors(id, errors);
      current = 'edit';
    }
  }

  private missing(path: FieldPath): boolean {
    if (this.serviceRejected.has(path)) return true;
    if (this.draft.has(path)) return false;
    // A file that gives the rest of the address and leaves out complemento means "none"; a
    // draft saved before the address was reached has none of it: complemento is asked too.
    if (!this.prefilled || !OPTIONAL_FIELDS.has(path) || this.rejected.has(path)) return true;
    const section = SECTIONS.find((s) => s.fields.includes(path));
    return !section?.fields.some((other) => other !== path && (this.draft.has(other) || this.rejected.has(other)));
  }

  private showErrors(id: SectionId, errors: readonly Issue[]): void {
    this.say(this.theme.error(say(this.lang, 'wizard.sectionErrors', { section: sectionTitle(this.lang, id) })));
    for (const e of errors) {
      if (sectionOf(e.path) === id) this.say(`  ${this.theme.error('✖')} ${e.path}: ${say(this.lang, e.message)}`);
    }
  }

  private async askPayout(mode: 'fill' | 'edit'): Promise<void> {
    let payout = mode === 'fill' ? this.prefillPayout : undefined;
    if (payout !== undefined && !payoutFields(payout).some((path) => this.missing(path))) {
      keepPayoutFields(this.draft, payout);
      return;
    }
    this.say(`\n${this.theme.strong(sectionTitle(this.lang, 'payout'))}`);
    if (payout === undefined) {
      payout = await this.prompts.select<PayoutMode>({
        name: 'payout',
        message: say(this.lang, 'wizard.payoutQuestion'),
        help: listHelp(this.lang),
        choices: (['pix', 'bank', 'both'] as const).map((value) => ({ value, ...payoutLabel(this.lang, value) })),
        default: payoutModeOf(this.draft),
      });
    }
    if (payout === 'both') this.say(this.theme.warning(say(this.lang, 'wizard.bothNote')));
    keepPayoutFields(this.draft, payout);
    for (const path of payoutFields(payout)) {
      if (mode === 'edit' || this.missing(path)) await this.askField(path);
    }
  }

  /** The message under the field, or true. */
  private validateAnswer(path: FieldPath, raw: string): true | string {
    const check = checkField(path, raw, this.lang);
    if (!check.ok) {
      const message = check.required ? say(this.lang, 'wizard.required') : check.message;
      return `${lastSegment(path)} ${message}`;
    }
    // What this answer and the fields already given decide (issue 14): CNH check digits
    // for the document type, a CEP in the range of the state, a bank code in the list.
    // An error refuses the answer; a warning is said once, and the same answer again keeps it.
    const draft: Draft = new Map(this.draft);
    if (check.value === undefined) draft.delete(path);
    else draft.set(path, check.value);
    const result = validateSubmission(toSubmission(draft), { now: this.options.now });
    // The document's own rule runs only once the whole document is given: asked here.
    const cnh = path === 'pessoa.documento.numero' && check.value !== undefined ? cnhProblem(draft.get('pessoa.documento.tipoDocumento'), check.value) : undefined;
    if (cnh) return `${lastSegment(path)} ${say(this.lang, cnh)}`;
    const error = result.errors.find((e) => e.path === path);
    if (error) return `${lastSegment(path)} ${say(this.lang, error.message)}`;
    const warning = result.warnings.find((w) => w.path === path);
    if (warning && this.warned.get(path) !== raw) {
      this.warned.set(path, raw);
      return `${say(this.lang, warning.message)} ${say(this.lang, 'wizard.enterToKeep')}`;
    }
    return true;
  }

  /** The bank field's list: by code or by name ("itau"); a 3-digit code not listed can still be chosen. */
  private searchBank(term: string): PromptChoice<string>[] {
    const choices = searchBanks(term).map((bank) => ({ value: bank.code, name: `${bank.code}  ${bank.name}` }));
    const code = term.trim();
    if (/^\d{3}$/.test(code) && !choices.some((c) => c.value === code)) choices.push({ value: code, name: `${code}  ${say(this.lang, 'wizard.bankNotListed')}` });
    return choices;
  }

  private async askField(path: FieldPath): Promise<void> {
    const refused = this.serviceRejected.get(path);
    if (refused !== undefined) {
      this.serviceRejected.delete(path);
      this.say(this.theme.warning(say(this.lang, 'wizard.serviceRefusedField', { field: fieldLabel(this.lang, path), message: refused })));
    }
    const wrong = this.rejected.get(path);
    if (wrong !== undefined) {
      this.rejected.delete(path);
      this.say(this.theme.warning(say(this.lang, 'wizard.prefillRejected', { field: path, message: wrong })));
    }
    const current = this.draft.get(path);
    const message = fieldQuestion(this.lang, path);
    const kind = fieldKind(path);
    for (;;) {
      let answer: string;
      if (kind === 'uf') {
        answer = await this.prompts.search<Uf>({
          name: path,
          message,
          source: searchUfs,
          default: current as Uf | undefined,
          help: listHelp(this.lang),
        });
      } else if (kind === 'bank') {
        answer = await this.prompts.search<string>({
          name: path,
          message,
          source: (term) => this.searchBank(term),
          ...(current !== undefined ? { default: current } : {}),
          help: listHelp(this.lang),
        });
        // A search has no message under the field: said here, and asked again (the same
        // choice again keeps a code the list does not know).
        const verdict = this.validateAnswer(path, answer);
        if (verdict !== true) {
          this.say(this.theme.warning(`  ${verdict}`));
          continue;
        }
      } else if (kind === 'select') {
        const values = SELECT_VALUES[path] ?? [];
        answer = await this.prompts.select<string>({
          name: path,
          message,
          choices: values.map((value) => ({ value, name: choiceLabel(this.lang, value) })),
          default: current,
          help: listHelp(this.lang),
        });
      } else {
        try {
          answer = await this.prompts.input({
            name: path,
            message,
            default: current,
            validate: (raw) => this.validateAnswer(path, raw),
          });
        } catch (error) {
          // Ctrl-C in the middle of a field: what was typed goes into the draft as typed
          // (checked again when the draft is resumed).
          if (error instanceof PromptCancelledError && error.partial?.trim()) this.draft.set(path, error.partial.trim());
          throw error;
        }
      }
      const check = checkField(path, answer, this.lang);
      if (!check.ok) {
        // Only a prompt that skips `validate` gets here; say why and ask again.
        this.say(this.theme.error(`  ✖ ${this.validateAnswer(path, answer)}`));
        continue;
      }
      if (check.value === undefined) this.draft.delete(path);
      else this.draft.set(path, check.value);
      this.echo(path, answer, check.value, check.notes);
      return;
    }
  }

  /** Show the value as it will be sent when normalisation changed it, and the bank's name. */
  private echo(path: FieldPath, answer: string, value: string | undefined, notes: readonly Note[]): void {
    if (value === undefined) return;
    const parts: string[] = [];
    if (value !== answer.trim()) {
      const why = notes.filter((n) => n !== 'rule.note.trimmed').map((n) => say(this.lang, n));
      parts.push(`→ ${value}${why.length ? ` (${why.join('; ')})` : ''}`);
    }
    // The bank's name is on the answered line already (the field's hint).
    if (parts.length) this.say(`  ${this.theme.muted(parts.join('  '))}`);
  }

  /** Ask where, and write what was entered there (0600); returns the path. */
  private save(): Promise<string> {
    return saveToChosenFile(this.keeper, this.prompts, toSubmission(this.draft), this.options.savePath);
  }
}
