import type { Node } from 'web-tree-sitter';
import { evaluates, readsValues } from './evaluation.ts';
import { bashParser } from './load.ts';
import { assignmentReason, HIDDEN_SUBSTITUTION, OTHER_SHELLS, programReasons, shellCall, SHELLS } from './programs.ts';
import { quotedHeredoc, scanScript } from './scan.ts';
import { hasLoopOrFunction } from './structure.ts';
import type { Redirect, ShellAnalysis, SimpleCommand } from './types.ts';
import { peelWrapper } from './wrappers.ts';
import { baseName, wordOf, type Word } from './words.ts';

/**
 * The walk over bash's syntax tree behind splitCommand (parser.ts). Tree-sitter's bash grammar
 * reads the command; scan.ts checks where the grammar and bash could disagree; wrappers.ts,
 * programs.ts and evaluation.ts know about particular programs.
 */

/** What surrounds the part being walked. */
interface Env {
  /** Wrappers looked through so far (`sudo`, then `bash -c` for the commands of its script). */
  wrappers: string[];
  /** The wrappers of the script being walked: substitutions in it run under them too. */
  scriptWrappers: string[];
  /** Redirections of enclosing statements (`{ …; } > f`). */
  redirects: Redirect[];
  /** Standard input comes from a pipe, a heredoc, a herestring or a file. */
  stdinFed: boolean;
  /** Nesting of `sh -c` scripts. */
  depth: number;
  /** Prefix for reasons found inside a nested script. */
  where: string;
}

const ROOT: Env = { wrappers: [], scriptWrappers: [], redirects: [], stdinFed: false, depth: 0, where: '' };
const MAX_DEPTH = 6;
/** Bash's reserved words: as a program name they mean the grammar misread the command. */
const KEYWORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'coproc', '[[', ']]']);
const snippet = (s: string) => `\`${s.length > 40 ? `${s.slice(0, 37)}…` : s}\``;
/** Commands substituted into a word run in the script's shell, not under the command's wrappers or redirections. */
const fresh = (env: Env): Env => ({ ...ROOT, wrappers: env.scriptWrappers, scriptWrappers: env.scriptWrappers, depth: env.depth, where: env.where });

/** One run of the splitter over a command: walks the syntax tree and collects commands and reasons. */
export class Analysis {
  commands: SimpleCommand[] = [];
  reasons = new Set<string>();
  /** The first place that evaluates values as arithmetic or names, and the first that reads values at run time (evaluation.ts). */
  evaluates?: string;
  runtimeValues?: string;
  /** Some script holds a loop or a function definition (structure.ts). */
  repeats = false;

  /** Analyses a whole command (the entry point). */
  run(command: string): ShellAnalysis {
    this.script(command, ROOT, '');
    if (this.evaluates && this.runtimeValues) {
      this.reasons.add(`${this.evaluates} evaluates a value as arithmetic or a name, and ${this.runtimeValues} sets values at run time: an array subscript in such a value runs $(…)`);
    }
    return { commands: this.commands, unanalysable: [...this.reasons], ...(this.repeats ? { repeats: true } : {}) };
  }

  reason(env: Env, why: string) {
    this.reasons.add(env.where + why);
  }

  /** Parses and walks one script: the command itself or a literal `sh -c` script. */
  script(text: string, env: Env, where: string) {
    const inner = { ...env, scriptWrappers: env.wrappers, where: env.where + where };
    if (env.depth > MAX_DEPTH) return this.reason(inner, 'shell scripts nested too deeply');
    const tree = bashParser().parse(text);
    if (!tree) return this.reason(inner, 'the command could not be parsed');
    try {
      for (const r of scanScript(text, tree.rootNode)) this.reason(inner, r);
      if (hasLoopOrFunction(tree.rootNode)) this.repeats = true;
      this.walk(tree.rootNode, inner);
    } catch (e) {
      // Fail closed: a bug here must make the command asked about, never allowed.
      this.reason(inner, `the splitter failed on this command (${e instanceof Error ? e.message : String(e)})`);
    } finally {
      tree.delete();
    }
  }

  walk(node: Node, env: Env): void {
    switch (node.type) {
      case 'comment':
        return;
      case 'command':
        return this.command(node, env);
      case 'redirected_statement':
        return this.redirected(node, env);
      case 'pipeline':
        return this.pipeline(node, env);
      case 'function_definition':
      case 'command_substitution':
        return this.withRedirects(node, env);
      case 'process_substitution':
        for (const c of node.children) this.walk(c, fresh(env));
        return;
      case 'variable_assignment':
        this.assignment(node, env);
        return;
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, env);
      case 'test_command':
        return this.test(node, env);
      case 'arithmetic_expansion':
      case 'c_style_for_statement':
        this.arithmetic(node, env);
        break;
      case 'compound_statement':
        if (node.firstChild?.type === '((') this.arithmetic(node, env);
        break;
      case 'expansion':
        if (node.text.startsWith('${!')) this.evaluates ??= snippet(node.text);
        if (/@P\}$/.test(node.text)) this.reason(env, `${node.text} runs the command substitutions in the value`);
        break;
      case 'for_statement': {
        const variable = node.childForFieldName('variable')?.text ?? '';
        const why = assignmentReason(variable, undefined);
        if (why) this.reason(env, why);
        const runtime = node.childrenForFieldName('value').some((v) => { const w = wordOf(v); return w.dynamic || w.glob; });
        if (runtime) this.runtimeValues ??= `the loop \`${node.firstChild?.type ?? 'for'} ${variable} in …\``;
        break;
      }
      case 'ansi_c_string':
        this.reason(env, `an ANSI-C string ${node.text} can spell any text in escapes`);
        return;
      case 'translated_string':
        this.reason(env, `a locale-translated string ${node.text}`);
        break;
      case 'heredoc_redirect':
      case 'herestring_redirect':
      case 'file_redirect':
        // Only reached where the grammar recovered from an error: collect what runs inside.
        break;
    }
    for (const c of node.children) this.walk(c, env);
  }

  /**
   * `a | b |& c`: every part after a pipe reads its input from the pipe. Redirections written
   * after the pipeline (`a | b > f`; the grammar hangs them on the whole pipeline) are the last part's.
   */
  pipeline(node: Node, env: Env, last?: { redirects: Redirect[]; stdin: boolean }) {
    let piped = env.stdinFed;
    const parts = node.children;
    const lastIndex = parts.findLastIndex((c) => c.isNamed);
    parts.forEach((c, i) => {
      if (c.type === '|' || c.type === '|&') piped = true;
      else if (i === lastIndex && last) this.walk(c, { ...env, redirects: [...env.redirects, ...last.redirects], stdinFed: piped || last.stdin });
      else this.walk(c, { ...env, stdinFed: piped });
    });
  }

  /**
   * A function definition (its body runs when called, with the redirections written after it)
   * or a command substitution (`$(< file)` reads the file, like `cat file`).
   */
  withRedirects(node: Node, env: Env) {
    const base = node.type === 'command_substitution' ? fresh(env) : env;
    const redirects: Redirect[] = [];
    const after: Node[] = [];
    for (const c of node.children) if (c.type.endsWith('_redirect')) this.redirect(c, base, redirects, after);
    const inner = { ...base, redirects: [...base.redirects, ...redirects] };
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i)!;
      if (c.type.endsWith('_redirect') || node.fieldNameForChild(i) === 'name') continue; // the function's name runs nothing
      this.walk(c, inner);
    }
    if (node.type === 'command_substitution' && redirects.length && !node.namedChildren.some((c) => !c.type.endsWith('_redirect'))) this.emitBare(inner);
    for (const a of after) this.walk(a, base);
  }

  /** A statement with redirections: they apply to every command inside its body. */
  redirected(node: Node, env: Env) {
    const redirects: Redirect[] = [];
    const after: Node[] = [];
    let stdin = false;
    let body: Node | null = null;
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i)!;
      if (node.fieldNameForChild(i) === 'body') body = c;
      else if (c.type.endsWith('_redirect')) stdin = this.redirect(c, env, redirects, after) || stdin;
      else this.walk(c, fresh(env));
    }
    const inner = { ...env, redirects: [...env.redirects, ...redirects], stdinFed: env.stdinFed || stdin };
    if (body?.type === 'pipeline') this.pipeline(body, env, { redirects, stdin });
    else if (body) this.walk(body, inner);
    else if (redirects.length) this.emitBare(inner);
    for (const a of after) this.walk(a, env);
  }

  /**
   * One redirection: file redirections go into `out`; what runs inside (`>(…)`, `$(…)` in a
   * heredoc) is walked; statements the grammar hangs under a heredoc (`cat <<EOF | sh`,
   * `cat <<EOF && rm x`) go into `after`. Returns whether it feeds standard input.
   */
  redirect(node: Node, env: Env, out: Redirect[], after: Node[]): boolean {
    const fd = node.children.find((c) => c.type === 'file_descriptor')?.text;
    const feedsStdin = fd === undefined || fd === '0';
    if (node.type === 'heredoc_redirect') {
      let stdin = feedsStdin;
      for (const c of node.children) {
        if (c.type === 'heredoc_body') { if (!quotedHeredoc(node)) this.walk(c, fresh(env)); }
        // `cat <<EOF > file`: the grammar hangs the command's other redirections under the heredoc.
        else if (c.type.endsWith('_redirect')) stdin = this.redirect(c, env, out, after) || stdin;
        else if (c.isNamed && !['heredoc_start', 'heredoc_end', 'file_descriptor'].includes(c.type)) after.push(c);
      }
      return stdin;
    }
    if (node.type === 'herestring_redirect') {
      for (const c of node.children) this.walk(c, fresh(env));
      return feedsStdin;
    }
    const opNode = node.children.find((c) => !c.isNamed);
    const op = opNode?.type ?? '';
    const dest = node.childForFieldName('destination');
    const full = (fd ?? '') + op;
    if (!dest) {
      out.push({ op: full, target: '', writes: false, reads: false });
      return false;
    }
    if (dest.type === 'process_substitution') {
      this.walk(dest, env);
      out.push({ op: full, target: dest.text, writes: false, reads: false });
      return false;
    }
    this.walk(dest, fresh(env));
    const w = wordOf(dest);
    const target = w.dynamic ? w.raw : w.value;
    if ((op === '>&' || op === '<&') && /^(\d+-?|-)$/.test(target)) {
      out.push({ op: full, target, writes: false, reads: false });
      return op === '<&' && feedsStdin;
    }
    if (w.dynamic) this.reason(env, `the redirection target ${w.raw} is not known before the command runs`);
    else if (w.glob) this.reason(env, `the redirection target ${w.raw} is a pattern the shell expands`);
    const writes = ['>', '>>', '&>', '&>>', '>|', '<>', '>&'].includes(op);
    const reads = ['<', '<>', '<&'].includes(op);
    out.push({ op: full, target, writes, reads });
    return reads && feedsStdin;
  }

  /** `NAME=value` (bare, in front of a command, or in `export`): checks it, walks the value. */
  assignment(node: Node, env: Env): string {
    const nameNode = node.childForFieldName('name');
    const valueNode = node.childForFieldName('value');
    if (nameNode) this.walk(nameNode, fresh(env));
    if (valueNode) this.walk(valueNode, fresh(env));
    const name = nameNode?.type === 'subscript' ? (nameNode.childForFieldName('name')?.text ?? nameNode.text) : (nameNode?.text ?? '');
    const value = valueNode ? wordOf(valueNode) : undefined;
    const why = assignmentReason(name, value);
    if (why) this.reason(env, why);
    if (value?.dynamic && valueNode?.type !== 'arithmetic_expansion') this.runtimeValues ??= `the assignment to ${name}`;
    return node.text;
  }

  /** A simple command node: assignments, redirections, name, arguments. */
  command(node: Node, env: Env) {
    const assigned: string[] = [];
    const redirects: Redirect[] = [];
    const after: Node[] = [];
    const words: Word[] = [];
    let stdin = false;
    let named = false;
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i)!;
      const field = node.fieldNameForChild(i);
      if (c.type === 'variable_assignment') assigned.push(this.assignment(c, env));
      else if (c.type.endsWith('_redirect')) stdin = this.redirect(c, env, redirects, after) || stdin;
      else if (field === 'name' || field === 'argument') {
        named ||= field === 'name';
        this.walk(c, fresh(env));
        words.push(wordOf(c.type === 'command_name' && c.firstChild ? c.firstChild : c));
      } else this.walk(c, fresh(env));
    }
    const inner: Env = { ...env, wrappers: [...env.wrappers, ...assigned], redirects: [...env.redirects, ...redirects], stdinFed: env.stdinFed || stdin };
    if (named) this.simple(words, inner, { runtimeArgs: false });
    else if (redirects.length) this.emitBare(inner);
    for (const a of after) this.walk(a, env);
  }

  /**
   * The words of one simple command: looks through wrappers, checks the program, looks into
   * `sh -c` scripts and `find -exec` commands, and records the command.
   */
  simple(all: Word[], env: Env, opts: { runtimeArgs: boolean; placeholder?: string }) {
    let words = opts.placeholder ? all.map((w) => (w.value.includes(opts.placeholder!) ? { ...w, dynamic: true } : w)) : all;
    const wrappers = [...env.wrappers];
    let runtimeArgs = opts.runtimeArgs;
    let i = 0;
    for (;;) {
      const w = words[i];
      if (w.dynamic) {
        this.reason(env, `the program ${w.raw} is not known before the command runs`);
        return this.emit(words.slice(i), wrappers, env, runtimeArgs);
      }
      if (KEYWORDS.has(w.raw)) {
        // The grammar does not know `time { …; }`, `! { …; }`, `time if …`: it reads the keyword as a program.
        this.reason(env, `the shell keyword ${w.raw} where the parser expected a program`);
        return this.emit(words.slice(i), wrappers, env, runtimeArgs);
      }
      if (w.glob) this.reason(env, `the program ${w.raw} is a pattern the shell expands`);
      const name = baseName(w.value);
      const peeled = peelWrapper(name, words, i);
      if (!peeled || 'stop' in peeled) break;
      if ('reason' in peeled) {
        this.reason(env, peeled.reason);
        return this.emit(words.slice(i), wrappers, env, runtimeArgs);
      }
      wrappers.push(name);
      for (const a of peeled.assignments ?? []) {
        const eq = a.value.indexOf('=');
        const why = assignmentReason(a.value.slice(0, eq), { ...a, value: a.value.slice(eq + 1) });
        if (why) this.reason(env, why);
        wrappers.push(a.dynamic ? a.raw : a.value);
      }
      if (peeled.runtimeArgs) runtimeArgs = true;
      if (peeled.placeholder) {
        const p = peeled.placeholder;
        words = words.map((x, j) => (j >= peeled.next && x.value.includes(p) ? { ...x, dynamic: true } : x));
      }
      i = peeled.next;
    }
    words = words.slice(i);
    const program = baseName(words[0].value);
    const args = words.slice(1);
    for (const r of programReasons(program, args, args.length > 0)) this.reason(env, r);
    if (program === 'exec' && env.stdinFed) this.reason(env, 'exec < … gives every later command (a shell among them) new input');
    if (SHELLS.has(program) || OTHER_SHELLS.has(program)) {
      if (this.shell(program, words, wrappers, env, runtimeArgs)) return;
    }
    this.emit(words, wrappers, env, runtimeArgs);
    if (program === 'find') this.findExec(args, wrappers, env);
  }

  /** `bash -c 'script'`: looks into a literal script. Returns true when the shell itself is not recorded. */
  shell(program: string, words: Word[], wrappers: string[], env: Env, runtimeArgs: boolean): boolean {
    const call = shellCall(program, words.slice(1));
    if (call.reason) { this.reason(env, call.reason); return false; }
    if (call.script) {
      if (OTHER_SHELLS.has(program)) { this.reason(env, `${program} -c runs a script in another shell's syntax`); return false; }
      if (call.script.dynamic) { this.reason(env, `${program} -c runs ${call.script.raw}, which is not known before the command runs`); return false; }
      const inner: Env = { ...env, wrappers: [...wrappers, `${program} -c`], depth: env.depth + 1 };
      this.script(call.script.value, inner, `in the ${program} -c script: `);
      return true;
    }
    if (call.readsStdin && env.stdinFed) this.reason(env, `${program} runs commands read from its input (a pipe, heredoc or file)`);
    else if (call.file?.dynamic || (runtimeArgs && !call.file)) this.reason(env, `${program} runs a script file named only at run time`);
    return false;
  }

  /** `find … -exec CMD … ;` (and -execdir, -ok, -okdir): CMD is a command too, `{}` a run-time value. */
  findExec(args: Word[], wrappers: string[], env: Env) {
    for (let i = 0; i < args.length; i++) {
      const flag = args[i].value;
      if (args[i].dynamic || !/^-(exec|execdir|ok|okdir)$/.test(flag)) continue;
      let end = i + 1;
      while (end < args.length && args[end].value !== ';' && !(args[end].value === '+' && args[end - 1].value.endsWith('{}'))) end++;
      if (end >= args.length) { this.reason(env, `find ${flag} has no terminating ; or +`); return; }
      if (end === i + 1) { this.reason(env, `find ${flag} names no command`); i = end; continue; }
      this.simple(args.slice(i + 1, end), { ...env, wrappers: [...wrappers, `find ${flag}`] }, { runtimeArgs: false, placeholder: '{}' });
      i = end;
    }
  }

  /** `export A=1`, `local x`, `unset -f f`: a builtin command whose assignments are checked. */
  declaration(node: Node, env: Env) {
    const words: Word[] = [];
    /** The words that are not assignments (these are checked by `assignment`). */
    const plain: Word[] = [];
    let program = '';
    for (const c of node.children) {
      if (!c.isNamed) { if (!program) program = c.type; continue; }
      if (c.type === 'variable_assignment') {
        this.assignment(c, env);
        const value = c.childForFieldName('value');
        const v = value ? wordOf(value) : undefined;
        const name = c.text.slice(0, value ? value.startIndex - c.startIndex : undefined);
        words.push({ value: name + (v ? (v.dynamic ? v.raw : v.value) : ''), raw: c.text, dynamic: v?.dynamic ?? false, glob: false });
      } else {
        this.walk(c, fresh(env));
        const w = wordOf(c);
        words.push(w);
        plain.push(w);
      }
    }
    for (const r of programReasons(program, plain, words.length > 0)) this.reason(env, r);
    this.emit([{ value: program, raw: program, dynamic: false, glob: false }, ...words], env.wrappers, env, false, plain);
  }

  /** `[ … ]` and `[[ … ]]`: a command named `[` or `[[` whose arguments are the test's words. */
  test(node: Node, env: Env) {
    const program = node.firstChild?.type ?? '[';
    const words: Word[] = [];
    const WORDS = new Set(['word', 'string', 'raw_string', 'number', 'concatenation', 'simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'extglob_pattern', 'regex', 'test_operator', 'ansi_c_string', 'translated_string', 'brace_expression']);
    const collect = (n: Node) => {
      if (WORDS.has(n.type)) {
        this.walk(n, fresh(env));
        words.push(n.type === 'extglob_pattern' || n.type === 'regex' || n.type === 'test_operator' ? { value: n.text, raw: n.text, dynamic: false, glob: false } : wordOf(n));
      } else if (!n.isNamed) {
        words.push({ value: n.type, raw: n.type, dynamic: false, glob: false });
      } else for (const c of n.children) collect(c);
    };
    for (const c of node.namedChildren) collect(c); // not the opening bracket, which is the program
    const close = node.lastChild?.type;
    if (close === ']' || close === ']]') words.push({ value: close, raw: close, dynamic: false, glob: false });
    for (const r of programReasons(program, words, true)) this.reason(env, r);
    this.emit([{ value: program, raw: program, dynamic: false, glob: false }, ...words], env.wrappers, env, false);
  }

  /** `$((…))`, `((…))`, `for ((…))`: quoted text in arithmetic can still run `$(…)` in a subscript. */
  arithmetic(node: Node, env: Env) {
    this.evaluates ??= snippet(node.text);
    const quoted = node.descendantsOfType(['raw_string', 'string']).some((s) => HIDDEN_SUBSTITUTION.test(s.text) && s.descendantsOfType('command_substitution').length === 0);
    if (quoted) this.reason(env, 'quoted text in arithmetic can run $(…) in an array subscript');
  }

  /** A command that is only redirections (`> file`): program ''. */
  emitBare(env: Env) {
    this.commands.push({ program: '', args: [], text: '', wrappers: env.wrappers, redirects: env.redirects, hasExpansion: false, hasGlob: false });
  }

  /** Records a command; `checked` are the arguments that evaluation.ts looks at (default: all). */
  emit(words: Word[], wrappers: string[], env: Env, runtimeArgs: boolean, checked = words.slice(1)) {
    const [first, ...rest] = words;
    const written = first.dynamic ? first.raw : first.value;
    const program = first.dynamic ? first.raw : baseName(written);
    const args = rest.map((w) => (w.dynamic ? w.raw : w.value));
    const command: SimpleCommand = {
      program,
      args,
      text: [program, ...args].join(' '),
      shown: words.map((w) => w.raw).join(' '),
      wrappers,
      redirects: env.redirects,
      hasExpansion: runtimeArgs || words.some((w) => w.dynamic),
      hasGlob: rest.some((w) => w.glob),
      argKinds: rest.map((w) => ({ dynamic: w.dynamic, glob: w.glob })),
    };
    if (!first.dynamic && written.includes('/')) command.programPath = written;
    this.commands.push(command);
    if (evaluates(program, checked)) this.evaluates ??= `\`${command.text}\``;
    if (readsValues(program, checked)) this.runtimeValues ??= `\`${command.text}\``;
  }
}
