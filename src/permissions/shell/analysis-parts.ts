import type { Node } from 'web-tree-sitter';
import type { Analysis } from './analysis.ts';
import { fresh, type Env } from './env.ts';
import { OTHER_SHELLS, programReasons, shellCall, writtenByVariable } from './programs.ts';
import type { Redirect } from './types.ts';
import { wordOf, type Word } from './words.ts';

/**
 * Parts of the walk (analysis.ts) for particular commands: `sh -c` scripts, `find -exec`,
 * declarations (`export`, `declare`), tests (`[`, `[[`), variables that make programs write files.
 */

/** `GIT_TRACE=/tmp/t cmd`, `export HISTFILE=f`: the file the variable makes programs write, as a redirection. */
export function variableFile(a: Analysis, node: Node, env: Env): Redirect | undefined {
  const name = node.childForFieldName('name')?.text ?? '';
  const valueNode = node.childForFieldName('value');
  const value = valueNode ? wordOf(valueNode) : undefined;
  if (!value) return undefined;
  const file = writtenByVariable(name, value.dynamic ? value.raw : value.value);
  if (!file) return undefined;
  if (value.dynamic) {
    a.reason(env, `${name}=${value.raw} makes programs write a file named only when it runs`);
    return undefined;
  }
  return { op: name, target: file, writes: true, reads: false };
}

/** `bash -c 'script'`: looks into a literal script. Returns true when the shell itself is not recorded. */
export function shell(a: Analysis, program: string, words: Word[], wrappers: string[], env: Env, runtimeArgs: boolean): boolean {
  const call = shellCall(program, words.slice(1));
  if (call.reason) {
    a.reason(env, call.reason);
    return false;
  }
  if (call.script) {
    if (OTHER_SHELLS.has(program)) {
      a.reason(env, `${program} -c runs a script in another shell's syntax`);
      return false;
    }
    if (call.script.dynamic) {
      a.reason(env, `${program} -c runs ${call.script.raw}, which is not known before the command runs`);
      return false;
    }
    const inner: Env = { ...env, wrappers: [...wrappers, `${program} -c`], depth: env.depth + 1 };
    a.script(call.script.value, inner, `in the ${program} -c script: `);
    return true;
  }
  if (call.readsStdin && env.stdinFed) a.reason(env, `${program} runs commands read from its input (a pipe, heredoc or file)`);
  else if (call.file?.dynamic || (runtimeArgs && !call.file)) a.reason(env, `${program} runs a script file named only at run time`);
  return false;
}

/** `find … -exec CMD … ;` (and -execdir, -ok, -okdir): CMD is a command too, `{}` a run-time value. */
export function findExec(a: Analysis, args: Word[], wrappers: string[], env: Env) {
  for (let i = 0; i < args.length; i++) {
    const flag = args[i].value;
    if (args[i].dynamic || !/^-(exec|execdir|ok|okdir)$/.test(flag)) continue;
    let end = i + 1;
    while (end < args.length && args[end].value !== ';' && !(args[end].value === '+' && args[end - 1].value.endsWith('{}'))) end++;
    if (end >= args.length) {
      a.reason(env, `find ${flag} has no terminating ; or +`);
      return;
    }
    if (end === i + 1) {
      a.reason(env, `find ${flag} names no command`);
      i = end;
      continue;
    }
    a.simple(args.slice(i + 1, end), { ...env, wrappers: [...wrappers, `find ${flag}`] }, { runtimeArgs: false, placeholder: '{}' });
    i = end;
  }
}

/** `export A=1`, `local x`, `unset -f f`: a builtin command whose assignments are checked. */
export function declaration(a: Analysis, node: Node, env: Env) {
  const words: Word[] = [];
  /** The words that are not assignments (these are checked by `assignment`). */
  const plain: Word[] = [];
  let program = '';
  for (const c of node.children) {
    if (!c.isNamed) {
      if (!program) program = c.type;
      continue;
    }
    if (c.type === 'variable_assignment') {
      a.assignment(c, env);
      const file = program === 'export' || program === 'declare' ? variableFile(a, c, env) : undefined;
      if (file) env = { ...env, redirects: [...env.redirects, file] };
      const value = c.childForFieldName('value');
      const v = value ? wordOf(value) : undefined;
      const name = c.text.slice(0, value ? value.startIndex - c.startIndex : undefined);
      words.push({ value: name + (v ? (v.dynamic ? v.raw : v.value) : ''), raw: c.text, dynamic: v?.dynamic ?? false, glob: false });
    } else {
      a.walk(c, fresh(env));
      const w = wordOf(c);
      words.push(w);
      plain.push(w);
    }
  }
  for (const r of programReasons(program, plain, words.length > 0)) a.reason(env, r);
  // `declare -i n=…` evaluates every value given to n; `declare -n r=x` makes r another name for x.
  const flags = plain
    .filter((w) => !w.dynamic && /^[-+][a-zA-Z]+$/.test(w.value))
    .map((w) => w.value)
    .join('');
  const names = [
    ...node.namedChildren.filter((c) => c.type === 'variable_assignment').map((c) => c.childForFieldName('name')?.text ?? ''),
    ...plain.filter((w) => !w.dynamic && !/^[-+]/.test(w.value)).map((w) => w.value),
  ];
  a.values.declaration(program, flags, names);
  a.values.names(program, plain);
  a.emit([{ value: program, raw: program, dynamic: false, glob: false }, ...words], env.wrappers, env, false, plain);
}

/** `[ … ]` and `[[ … ]]`: a command named `[` or `[[` whose arguments are the test's words. */
export function test(a: Analysis, node: Node, env: Env) {
  const program = node.firstChild?.type ?? '[';
  const words: Word[] = [];
  const WORDS = new Set([
    'word',
    'string',
    'raw_string',
    'number',
    'concatenation',
    'simple_expansion',
    'expansion',
    'command_substitution',
    'process_substitution',
    'arithmetic_expansion',
    'extglob_pattern',
    'regex',
    'test_operator',
    'ansi_c_string',
    'translated_string',
    'brace_expression',
  ]);
  const collect = (n: Node) => {
    if (WORDS.has(n.type)) {
      a.walk(n, fresh(env));
      words.push(
        n.type === 'extglob_pattern' || n.type === 'regex' || n.type === 'test_operator'
          ? { value: n.text, raw: n.text, dynamic: false, glob: false }
          : wordOf(n),
      );
    } else if (!n.isNamed) {
      words.push({ value: n.type, raw: n.type, dynamic: false, glob: false });
    } else for (const c of n.children) collect(c);
  };
  for (const c of node.namedChildren) collect(c); // not the opening bracket, which is the program
  // `[[ a -eq b ]]` evaluates both sides as arithmetic; `[[ -v name ]]` evaluates a subscript in the name.
  if (program === '[[') a.values.doubleBracket(node);
  const close = node.lastChild?.type;
  if (close === ']' || close === ']]') words.push({ value: close, raw: close, dynamic: false, glob: false });
  for (const r of programReasons(program, words, true)) a.reason(env, r);
  a.emit([{ value: program, raw: program, dynamic: false, glob: false }, ...words], env.wrappers, env, false);
}
