import type { Node } from 'web-tree-sitter';
import { bashParser } from './load.ts';
import { assignmentReason, HIDDEN_SUBSTITUTION, OTHER_SHELLS, programReasons, SHELLS, writtenByVariable } from './programs.ts';
import { quotedHeredoc, scanScript } from './scan.ts';
import { scriptFacts } from './scripts.ts';
import { declaration, findExec, shell, test, variableFile } from './analysis-parts.ts';
import { fresh, ROOT, type Env } from './env.ts';
import { hasLoopOrFunction } from './structure.ts';
import type { Redirect, ShellAnalysis, SimpleCommand } from './types.ts';
import { ValueTracker } from './values.ts';
import { peelWrapper } from './wrappers.ts';
import { expandBraces } from '../braces.ts';
import { baseName, literalWord, wordOf, type Word } from './words.ts';

/**
 * The walk over bash's syntax tree behind splitCommand (parser.ts). Tree-sitter's bash grammar
 * reads the command; scan.ts checks where the grammar and bash could disagree; wrappers.ts,
 * programs.ts and evaluation.ts know about particular programs.
 */

const MAX_DEPTH = 6;
/** Bash's reserved words: as a program name they mean the grammar misread the command. */
const KEYWORDS = new Set([
  '!',
  '{',
  '}',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'coproc',
  '[[',
  ']]',
]);

/** One run of the splitter over a command: walks the syntax tree and collects commands and reasons. */
export class Analysis {
  commands: SimpleCommand[] = [];
  reasons = new Set<string>();
  /** Reasons that only say a named file runs as shell code (`source ./env.sh`), like `bash ./env.sh` would. */
  filesRun = new Set<string>();
  /** Some script holds a loop or a function definition (structure.ts). */
  repeats = false;
  /** Values bash evaluates and where they come from (values.ts). */
  values = new ValueTracker();

  /** Analyses a whole command (the entry point). */
  run(command: string): ShellAnalysis {
    this.script(command, ROOT, '');
    const values = this.values.finish();
    for (const r of values.reasons) this.reasons.add(r);
    const filesRun = [...this.filesRun].filter((r) => this.reasons.has(r));
    return {
      commands: this.commands,
      unanalysable: [...this.reasons],
      ...(this.repeats ? { repeats: true } : {}),
      ...(Object.keys(values.loops).length ? { loops: values.loops } : {}),
      ...(filesRun.length ? { filesRun } : {}),
    };
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
        return declaration(this, node, env);
      case 'test_command':
        return test(this, node, env);
      case 'arithmetic_expansion':
      case 'c_style_for_statement':
        this.arithmetic(node, env);
        break;
      case 'compound_statement':
        if (node.firstChild?.type === '((') this.arithmetic(node, env);
        break;
      case 'expansion':
        if (/@P\}$/.test(node.text)) this.reason(env, `${node.text} runs the command substitutions in the value`);
        this.values.expansion(node);
        break;
      case 'subscript':
        this.values.subscript(node);
        break;
      case 'for_statement': {
        const variable = node.childForFieldName('variable')?.text ?? '';
        const why = assignmentReason(variable, undefined);
        if (why) this.reason(env, why);
        this.values.loop(node);
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
  pipeline(node: Node, env: Env, last?: { redirects: Redirect[]; stdin: boolean; trailing?: Node[] }) {
    let piped = env.stdinFed;
    const parts = node.children;
    const lastIndex = parts.findLastIndex((c) => c.isNamed);
    parts.forEach((c, i) => {
      if (c.type === '|' || c.type === '|&') piped = true;
      else if (i === lastIndex && last) {
        const inner = { ...env, redirects: [...env.redirects, ...last.redirects], stdinFed: piped || last.stdin };
        if (c.type === 'command' && last.trailing?.length) this.command(c, inner, last.trailing);
        else this.walk(c, inner);
      } else this.walk(c, { ...env, stdinFed: piped });
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
    if (node.type === 'command_substitution' && redirects.length && !node.namedChildren.some((c) => !c.type.endsWith('_redirect')))
      this.emitBare(inner);
    for (const a of after) this.walk(a, base);
  }

  /** A statement with redirections: they apply to every command inside its body. */
  redirected(node: Node, env: Env) {
    const redirects: Redirect[] = [];
    const after: Node[] = [];
    const extra: Node[] = [];
    let stdin = false;
    let body: Node | null = null;
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i)!;
      if (node.fieldNameForChild(i) === 'body') body = c;
      else if (c.type.endsWith('_redirect')) stdin = this.redirect(c, env, redirects, after, extra) || stdin;
      else this.walk(c, fresh(env));
    }
    const inner = { ...env, redirects: [...env.redirects, ...redirects], stdinFed: env.stdinFed || stdin };
    // The grammar reads `a && b > f` as `(a && b) > f`; bash gives the redirection to `b` alone.
    let last = body;
    while (last?.type === 'list') {
      const parts = last.namedChildren;
      for (const p of parts.slice(0, -1)) this.walk(p, env);
      last = parts[parts.length - 1] ?? null;
    }
    // Words after the redirections are the arguments of the command they follow (`ls >&2 x`).
    const tail = last?.type === 'pipeline' ? last.namedChildren[last.namedChildren.length - 1] : last;
    if (extra.length && tail?.type !== 'command') {
      this.reason(env, `words after a redirection (${extra.map((m) => m.text).join(' ')}) where no command takes them`);
      for (const m of extra) this.walk(m, fresh(env));
    }
    const trailing = tail?.type === 'command' ? extra : [];
    if (last?.type === 'pipeline') this.pipeline(last, env, { redirects, stdin, trailing });
    else if (last?.type === 'command') this.command(last, inner, trailing);
    else if (last) this.walk(last, inner);
    else if (redirects.length) this.emitBare(inner);
    for (const a of after) this.walk(a, env);
  }

  /**
   * One redirection: file redirections go into `out`; what runs inside (`>(…)`, `$(…)` in a
   * heredoc) is walked; statements the grammar hangs under a heredoc (`cat <<EOF | sh`,
   * `cat <<EOF && rm x`) go into `after`. Returns whether it feeds standard input.
   */
  redirect(node: Node, env: Env, out: Redirect[], after: Node[], extra?: Node[]): boolean {
    const fd = node.children.find((c) => c.type === 'file_descriptor')?.text;
    // The grammar hangs the words after a redirection (`cat 2>/dev/null .env`, `ls >&2 $(…)`) on it as
    // more destinations: they are the command's arguments. Where no command can take them, they cannot be analysed.
    const more: Node[] = [];
    let seen = false;
    for (let i = 0; i < node.childCount; i++) {
      if (node.fieldNameForChild(i) !== 'destination') continue;
      if (seen) more.push(node.child(i)!);
      seen = true;
    }
    if (more.length && extra) extra.push(...more);
    else if (more.length) {
      this.reason(env, `words after a redirection (${more.map((m) => m.text).join(' ')}) where no command takes them`);
      for (const m of more) this.walk(m, fresh(env));
    }
    const feedsStdin = fd === undefined || fd === '0';
    if (node.type === 'heredoc_redirect') {
      let stdin = feedsStdin;
      for (const c of node.children) {
        if (c.type === 'heredoc_body') {
          if (!quotedHeredoc(node)) this.walk(c, fresh(env));
        }
        // `cat <<EOF > file`: the grammar hangs the command's other redirections under the heredoc.
        else if (c.type.endsWith('_redirect')) stdin = this.redirect(c, env, out, after, extra) || stdin;
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
    this.values.assignment(name, valueNode);
    return node.text;
  }

  /** A simple command node: assignments, redirections, name, arguments. */
  command(node: Node, env: Env, trailing: Node[] = []) {
    const assigned: string[] = [];
    const redirects: Redirect[] = [];
    const after: Node[] = [];
    const words: Word[] = [];
    let stdin = false;
    let named = false;
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i)!;
      const field = node.fieldNameForChild(i);
      if (c.type === 'variable_assignment') {
        assigned.push(this.assignment(c, env));
        const file = variableFile(this, c, env);
        if (file) redirects.push(file);
      } else if (c.type.endsWith('_redirect')) {
        const extra: Node[] = [];
        stdin = this.redirect(c, env, redirects, after, extra) || stdin;
        for (const x of extra) {
          this.walk(x, fresh(env));
          words.push(wordOf(x));
        }
      } else if (field === 'name' || field === 'argument') {
        named ||= field === 'name';
        this.walk(c, fresh(env));
        words.push(wordOf(c.type === 'command_name' && c.firstChild ? c.firstChild : c));
      } else this.walk(c, fresh(env));
    }
    for (const x of trailing) {
      this.walk(x, fresh(env));
      words.push(wordOf(x));
    }
    const inner: Env = {
      ...env,
      wrappers: [...env.wrappers, ...assigned],
      redirects: [...env.redirects, ...redirects],
      stdinFed: env.stdinFed || stdin,
    };
    if (named) this.simple(words, inner, { runtimeArgs: false });
    else if (redirects.length) this.emitBare(inner);
    for (const a of after) this.walk(a, env);
  }

  /**
   * The words of one simple command: looks through wrappers, checks the program, looks into
   * `sh -c` scripts and `find -exec` commands, and records the command.
   */
  simple(given: Word[], outer: Env, opts: { runtimeArgs: boolean; placeholder?: string }) {
    // Brace patterns are expanded first, as bash does: `find . {-delete,-name,x}` is `find . -delete -name x`.
    const all = given.length > 1 ? [given[0], ...given.slice(1).flatMap((w) => this.braces(w, outer))] : given;
    let words = opts.placeholder ? all.map((w) => (w.value.includes(opts.placeholder!) ? { ...w, dynamic: true } : w)) : all;
    const wrappers = [...outer.wrappers];
    let env = outer;
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
      const peeled = peelWrapper(name, words, i, env.stdinFed);
      if (!peeled || 'stop' in peeled) break;
      if ('reason' in peeled) {
        this.reason(env, peeled.reason);
        return this.emit(words.slice(i), wrappers, env, runtimeArgs);
      }
      // `env -C DIR cmd`: the wrapper is named with the option, so where cmd runs is known to be elsewhere (bash-files.ts).
      wrappers.push('chdir' in peeled && peeled.chdir ? `${name} ${peeled.chdir}` : name);
      if ('shellArgs' in peeled) {
        // `su root -c 'cmd'`: the words after the user are a shell's arguments.
        words = [literalWord('sh'), ...words.slice(peeled.shellArgs)];
        i = 0;
        break;
      }
      // Files the wrapper itself reads or writes (`strace -o F`, `flock F`) count like redirections of the command.
      const files: Redirect[] = [];
      for (const [list, writes] of [
        [peeled.writes, true],
        [peeled.reads, false],
      ] as const) {
        for (const f of list ?? []) {
          if (f.dynamic) this.reason(env, `${name} ${writes ? 'writes' : 'reads'} ${f.raw}, which is not known before the command runs`);
          else files.push({ op: name, target: f.value, writes, reads: !writes });
        }
      }
      if (files.length) env = { ...env, redirects: [...env.redirects, ...files] };
      if ('script' in peeled) {
        // `watch 'a; b'`, `su -c '…'`, `parallel 'cmd {}' ::: …`: a shell string, looked into like `sh -c`.
        const inner: Env = { ...env, wrappers: [...wrappers], depth: env.depth + 1 };
        this.script(peeled.script.value, inner, `in the ${name} command: `);
        return;
      }
      for (const a of peeled.assignments ?? []) {
        const eq = a.value.indexOf('=');
        const why = assignmentReason(a.value.slice(0, eq), { ...a, value: a.value.slice(eq + 1) });
        if (why) this.reason(env, why);
        wrappers.push(a.dynamic ? a.raw : a.value);
        const file = writtenByVariable(a.value.slice(0, eq), a.value.slice(eq + 1));
        if (file && a.dynamic) this.reason(env, `${a.raw} makes programs write a file named only when it runs`);
        else if (file)
          env = { ...env, redirects: [...env.redirects, { op: a.value.slice(0, eq), target: file, writes: true, reads: false }] };
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
    for (const r of programReasons(program, args, args.length > 0)) {
      this.reason(env, r);
      if ((program === 'source' || program === '.') && args[0] && !args[0].dynamic && !args[0].glob) this.filesRun.add(env.where + r);
    }
    // A script of the program's own (`sed 's/x/y/e'`, `awk '{system(…)}'`, `python -c …`).
    const facts = scriptFacts(program, args, env.stdinFed);
    let extra: Pick<SimpleCommand, 'code' | 'inPlace'> = {};
    if (facts) {
      for (const r of facts.reasons) this.reason(env, r);
      const files: Redirect[] = [
        ...facts.writes.map((f) => ({ op: program, target: f, writes: true, reads: false })),
        ...facts.reads.map((f) => ({ op: program, target: f, writes: false, reads: true })),
      ];
      if (files.length) env = { ...env, redirects: [...env.redirects, ...files] };
      extra = { ...(facts.code ? { code: facts.code } : {}), ...(facts.inPlace ? { inPlace: true } : {}) };
    }
    if (program === 'exec' && env.stdinFed) this.reason(env, 'exec < … gives every later command (a shell among them) new input');
    if (SHELLS.has(program) || OTHER_SHELLS.has(program)) {
      if (shell(this, program, words, wrappers, env, runtimeArgs)) return;
    }
    this.emit(words, wrappers, env, runtimeArgs, undefined, extra);
    if (program === 'find') findExec(this, args, wrappers, env);
  }

  /** The words an argument with a brace pattern becomes (`-{o,X}` → `-o`, `-X`); itself otherwise. */
  braces(w: Word, env: Env): Word[] {
    if (!w.glob || w.dynamic || !/[{]/.test(w.value)) return [w];
    const out = expandBraces(w.value);
    if (!out) {
      this.reason(env, `${w.raw} expands to too many words`);
      return [w];
    }
    if (out.length === 1 && out[0] === w.value) return [w];
    return out.map((value) => ({ value, raw: value, dynamic: false, glob: true }));
  }

  /** `$((…))`, `((…))`, `for ((…))`: quoted text in arithmetic can still run `$(…)` in a subscript. */
  arithmetic(node: Node, env: Env) {
    this.values.arithmetic(node);
    const quoted = node
      .descendantsOfType(['raw_string', 'string'])
      .some((s) => HIDDEN_SUBSTITUTION.test(s.text) && s.descendantsOfType('command_substitution').length === 0);
    if (quoted) this.reason(env, 'quoted text in arithmetic can run $(…) in an array subscript');
  }

  /** A command that is only redirections (`> file`): program ''. */
  emitBare(env: Env) {
    this.commands.push({
      program: '',
      args: [],
      text: '',
      wrappers: env.wrappers,
      redirects: env.redirects,
      hasExpansion: false,
      hasGlob: false,
    });
  }

  /** Records a command; `checked` are the arguments that evaluation.ts looks at (default: all). */
  emit(
    words: Word[],
    wrappers: string[],
    env: Env,
    runtimeArgs: boolean,
    checked = words.slice(1),
    extra: Pick<SimpleCommand, 'code' | 'inPlace'> = {},
  ) {
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
      ...extra,
    };
    if (!first.dynamic && written.includes('/')) command.programPath = written;
    this.commands.push(command);
    this.values.command(program, checked, command.text);
  }
}
