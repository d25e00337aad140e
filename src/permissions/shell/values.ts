import type { Node } from 'web-tree-sitter';
import { Evaluations, evaluates, readsValues } from './evaluation.ts';
import { wordOf, type Word } from './words.ts';

/**
 * What one analysis learns about shell values (evaluation.ts): where bash evaluates a value as
 * arithmetic or a name, which names get values the command does not show, and what a `for`
 * loop's variable can be. analysis.ts calls it as it walks the tree; `finish` gives the reasons.
 */

const snippet = (s: string) => `\`${s.length > 40 ? `${s.slice(0, 37)}…` : s}\``;
const text = (w: Word) => (w.dynamic ? w.raw : w.value);

export class ValueTracker {
  private readonly sites = new Evaluations();
  /** Names declared integer (`declare -i n`): every assignment to them is evaluated. */
  private readonly integers = new Set<string>();
  private readonly assigned: Array<{ name: string; value: string }> = [];
  /** `for f in WORDS`: the literal words a loop variable takes, and names set any other way (these are not resolved). */
  private readonly loopWords = new Map<string, Array<{ value: string; glob: boolean }>>();
  private readonly setElsewhere = new Set<string>();
  /** The first place that evaluates values as arithmetic or names, and the first that reads values at run time. */
  private evaluated?: string;
  private runtime?: string;

  /** `$((…))`, `((…))`, `for ((…))`, `$[…]`. */
  arithmetic(node: Node): void {
    this.sites.site(snippet(node.text), node.text);
    this.evaluated ??= snippet(node.text);
  }

  /** `${x:off:len}`, `${!x}`, `${x:=v}`: where an expansion evaluates or assigns a value. */
  expansion(node: Node): void {
    if (node.text.startsWith('${!')) this.evaluated ??= snippet(node.text);
    const kids = node.children;
    const colon = kids.findIndex((c) => c.type === ':');
    if (colon >= 0)
      this.sites.site(
        snippet(node.text),
        kids
          .slice(colon + 1, -1)
          .map((c) => c.text)
          .join(' '),
      );
    if (node.text.startsWith('${!'))
      this.sites.site(
        snippet(node.text),
        kids
          .slice(2, -1)
          .map((c) => c.text)
          .join(' '),
      );
    const name = kids.find((c) => c.type === 'variable_name')?.text;
    if (name && kids.some((c) => c.type === ':=' || c.type === '=')) this.set(name, `\`${snippet(node.text)}\``);
  }

  /** `a[i]` (in an expansion or an assignment): an indexed array's subscript is arithmetic. */
  subscript(node: Node): void {
    const index = node.childForFieldName('index') ?? node.namedChildren[1];
    if (index && index.text !== '@' && index.text !== '*') this.sites.site(snippet(node.text), index.text);
  }

  /** `for x in WORDS`, `select x in WORDS`. */
  loop(node: Node): void {
    const variable = node.childForFieldName('variable')?.text ?? '';
    const kind = node.firstChild?.type ?? 'for';
    const values = node.childrenForFieldName('value');
    const words = values.map(wordOf);
    if (words.some((w) => w.dynamic || w.glob)) this.runtime ??= `the loop \`${kind} ${variable} in …\``;
    const numeric =
      kind === 'for' &&
      values.length > 0 &&
      values.every((v) => v.type === 'number' || /^\{-?[0-9]+\.\.-?[0-9]+(\.\.-?[0-9]+)?\}$/.test(v.text) || /^[0-9]+$/.test(v.text));
    if (!numeric) this.sites.taint(variable, `the loop \`${kind} ${variable} in …\``);
    if (kind === 'for' && values.length > 0 && !words.some((w) => w.dynamic)) {
      this.loopWords.set(variable, [...(this.loopWords.get(variable) ?? []), ...words.map((w) => ({ value: w.value, glob: w.glob }))]);
    } else this.setElsewhere.add(variable);
  }

  /** `NAME=value`, `NAME=(…)`, `a[i]=…`. */
  assignment(name: string, valueNode: Node | null): void {
    const value = valueNode ? wordOf(valueNode) : undefined;
    if (value?.dynamic && valueNode?.type !== 'arithmetic_expansion') this.runtime ??= `the assignment to ${name}`;
    if (valueNode?.type === 'array') {
      for (const e of valueNode.namedChildren)
        if (e.text.startsWith('['))
          this.sites.site(snippet(e.text), e.text.slice(1, e.text.indexOf(']') > 0 ? e.text.indexOf(']') : undefined));
      if (!valueNode.namedChildren.every((e) => /^(\[[^\]]*\]=)?[0-9]+$/.test(e.text))) this.sites.taint(name, `the assignment to ${name}`);
    } else if (name) {
      this.setElsewhere.add(name);
      this.sites.assign(name, valueNode?.text ?? '', `the assignment to ${name}`);
      if (valueNode) this.assigned.push({ name, value: valueNode.text });
    }
  }

  /** `declare -i n=…` evaluates every value given to n; `declare -n r=x` makes r another name for x. */
  declaration(program: string, flags: string, names: string[]): void {
    for (const n of names) {
      if (/i/.test(flags)) this.integers.add(n);
      if (/n/.test(flags)) this.sites.taint(n, `\`${program} -n\``);
    }
  }

  /** `[[ a -eq b ]]` evaluates both sides as arithmetic; `[[ -v name ]]` evaluates a subscript in the name. */
  doubleBracket(node: Node): void {
    for (const e of node.descendantsOfType(['binary_expression', 'unary_expression'])) {
      const op = e.children.find((c) => c.type === 'test_operator')?.text ?? '';
      const operands = () =>
        e.children
          .filter((c) => c.type !== 'test_operator')
          .map((c) => c.text)
          .join(' ');
      if (/^-(eq|ne|lt|le|gt|ge)$/.test(op) && e.type === 'binary_expression') this.sites.site(snippet(e.text), operands());
      if (/^-[vR]$/.test(op) && e.type === 'unary_expression') this.sites.site(snippet(e.text), operands());
    }
  }

  /** Words a builtin reads as variable names (`unset NAME`, `read NAME`, `declare NAME`): a dynamic one, or a subscript, is evaluated. */
  names(program: string, words: Word[]): void {
    for (const w of words) {
      if (w.dynamic) this.sites.site(`\`${program} ${w.raw}\``, w.raw);
      else if (/\[.*\]/.test(w.value) && !/^-/.test(w.value))
        this.sites.site(`\`${program} ${w.value}\``, w.value.slice(w.value.indexOf('[')));
    }
  }

  /** A simple command: builtins that evaluate values, builtins that set names. */
  command(program: string, args: Word[], commandText: string): void {
    if (evaluates(program, args)) this.evaluated ??= `\`${commandText}\``;
    if (readsValues(program, args)) this.runtime ??= `\`${commandText}\``;
    const where = `\`${[program, ...args.map(text)].join(' ').slice(0, 40)}\``;
    switch (program) {
      case 'let':
        for (const a of args) this.sites.site(where, text(a));
        return;
      case 'test':
      case '[':
        args.forEach((a, i) => {
          if (/^-[vR]$/.test(a.value) && args[i + 1]) this.sites.site(where, text(args[i + 1]));
        });
        return;
      case 'unset':
        this.names(
          program,
          args.filter((a) => !/^-[fvn]+$/.test(a.value)),
        );
        return;
      case 'read':
      case 'mapfile':
      case 'readarray':
      case 'getopts':
      case 'printf':
      case 'wait': {
        // The names they fill get values from input, files or options: unknown.
        const valued: Record<string, string> = {
          read: 'adinNptu',
          mapfile: 'dnOsuCc',
          readarray: 'dnOsuCc',
          printf: '',
          getopts: '',
          wait: '',
        };
        const targets: Word[] = [];
        for (let i = 0; i < args.length; i++) {
          const a = args[i];
          if (
            (program === 'printf' && a.value === '-v') ||
            (program === 'wait' && a.value === '-p') ||
            (program === 'read' && a.value === '-a')
          ) {
            if (args[i + 1]) targets.push(args[++i]);
            continue;
          }
          if (/^-/.test(a.value) && !a.dynamic) {
            if (valued[program].includes(a.value.slice(-1)) && a.value.length === 2) i++;
            continue;
          }
          if (program === 'printf' || program === 'wait') break;
          targets.push(a);
        }
        const named =
          program === 'getopts' ? targets.slice(1, 2) : program === 'mapfile' || program === 'readarray' ? targets.slice(-1) : targets;
        for (const t of named) if (!t.dynamic) this.set(t.value.replace(/\[.*$/, ''), where);
        this.names(program, named);
        if (program === 'read' && named.length === 0) this.sites.taint('REPLY', where);
      }
    }
  }

  /** The reasons to ask, and the loop variables that can be resolved. */
  finish(): { reasons: string[]; loops: Record<string, Array<{ value: string; glob: boolean }>> } {
    const reasons: string[] = [];
    if (this.evaluated && this.runtime) {
      reasons.push(
        `${this.evaluated} evaluates a value as arithmetic or a name, and ${this.runtime} sets values at run time: an array subscript in such a value runs $(…)`,
      );
    }
    for (const a of this.assigned) if (this.integers.has(a.name)) this.sites.site(`the integer variable ${a.name}`, a.value);
    reasons.push(...this.sites.reasons());
    const loops = Object.fromEntries([...this.loopWords].filter(([n]) => !this.setElsewhere.has(n)));
    return { reasons, loops };
  }

  private set(name: string, where: string): void {
    this.sites.taint(name, where);
    this.setElsewhere.add(name);
  }
}
