/**
 * Readers of the scripts sed and awk are given (scripts.ts): what a script runs, writes and reads,
 * read as the programs read them. Pure.
 */

// ---------------------------------------------------------------- sed

/** What a sed script does, read as GNU sed reads it; `error` when it could not be read (then: assume the worst). */
export function sedScript(script: string): { execs: boolean; writes: string[]; reads: string[]; error?: string } {
  const out = { execs: false, writes: [] as string[], reads: [] as string[] };
  let i = 0;
  const n = script.length;
  const fail = (error: string) => ({ ...out, execs: true, error });
  const toEol = () => {
    const e = script.indexOf('\n', i);
    const t = script.slice(i, e < 0 ? n : e);
    i = e < 0 ? n : e;
    return t;
  };
  const blanks = () => {
    while (i < n && /[ \t]/.test(script[i])) i++;
  };
  /** A delimited part (`/re/`, the `s` replacement): returns false when unterminated. */
  const delimited = (d: string): boolean => {
    while (i < n && script[i] !== d) {
      if (script[i] === '\\') i++;
      else if (script[i] === '\n' && d !== '\n') return false;
      i++;
    }
    if (i >= n) return false;
    i++;
    return true;
  };
  const address = (): boolean => {
    if (/[0-9]/.test(script[i] ?? '')) {
      while (/[0-9~]/.test(script[i] ?? '')) i++;
      return true;
    }
    if (script[i] === '$') {
      i++;
      return true;
    }
    if (script[i] === '/' || script[i] === '\\') {
      const d = script[i] === '\\' ? script[++i] : '/';
      i++;
      if (!delimited(d)) return false;
      while (/[IM]/.test(script[i] ?? '')) i++;
      return true;
    }
    return true;
  };
  while (i < n) {
    while (i < n && /[\s;]/.test(script[i])) i++;
    if (i >= n) break;
    if (script[i] === '#') {
      toEol();
      continue;
    }
    if (!address()) return fail('an unterminated address');
    blanks();
    if (script[i] === ',') {
      i++;
      blanks();
      if (script[i] === '+' || script[i] === '~') i++;
      if (!address()) return fail('an unterminated address');
      blanks();
    }
    while (script[i] === '!') {
      i++;
      blanks();
    }
    const c = script[i++];
    switch (c) {
      case '{':
      case '}':
      case '=':
      case 'd':
      case 'D':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
      case 'n':
      case 'N':
      case 'p':
      case 'P':
      case 'x':
      case 'z':
      case 'F':
        break;
      case 'l':
      case 'q':
      case 'Q':
      case 'L':
        blanks();
        while (/[0-9]/.test(script[i] ?? '')) i++;
        break;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v': {
        blanks();
        while (i < n && script[i] !== '\n' && script[i] !== ';') i++;
        break;
      }
      case 'a':
      case 'i':
      case 'c': {
        // `a text` (to the end of the line) or `a\` and lines ending in backslashes.
        for (;;) {
          const line = toEol();
          if (!line.endsWith('\\') || i >= n) break;
          i++;
        }
        break;
      }
      case 'e':
        out.execs = true;
        toEol();
        break;
      case 'r':
      case 'R':
      case 'w':
      case 'W': {
        blanks();
        const file = toEol();
        (c === 'w' || c === 'W' ? out.writes : out.reads).push(file);
        break;
      }
      case 'y': {
        const d = script[i++];
        if (!d || d === '\n' || d === '\\' || !delimited(d) || !delimited(d)) return fail('an unterminated y command');
        break;
      }
      case 's': {
        const d = script[i++];
        if (!d || d === '\n' || d === '\\' || !delimited(d) || !delimited(d)) return fail('an unterminated s command');
        for (;;) {
          const f = script[i];
          if (f === undefined || /[\s;}]/.test(f)) break;
          if (f === 'e') out.execs = true;
          if (f === 'w') {
            i++;
            blanks();
            out.writes.push(toEol());
            break;
          }
          if (!/[gpiImMe0-9]/.test(f)) return fail(`an unknown s flag ${f}`);
          i++;
        }
        break;
      }
      default:
        return fail(`an unknown command ${JSON.stringify(c ?? '')}`);
    }
  }
  return out;
}

// ---------------------------------------------------------------- awk

/**
 * What an awk program does: pipes (`print | "cmd"`, `"cmd" | getline`), `system()` and
 * coprocesses run commands; `print > "file"` writes one. Strings, regular expressions and
 * comments are set aside first; `>` counts as a redirection only inside a print statement,
 * outside parentheses.
 */
export function awkScript(program: string): {
  execs: boolean;
  writes: string[];
  unknownWrite: boolean;
  reads: string[];
  unknownRead: boolean;
} {
  const out = { execs: false, writes: [] as string[], unknownWrite: false, reads: [] as string[], unknownRead: false };
  type Tok = { t: string; s?: string };
  const toks: Tok[] = [];
  let i = 0;
  const n = program.length;
  const operandEnd = () => {
    const last = toks[toks.length - 1];
    return (
      last !== undefined &&
      (/^[\w$)\]]/.test(last.t) || last.t === 'str' || last.t === 're') &&
      !/^(print|printf|return|in|getline|case)$/.test(last.t)
    );
  };
  while (i < n) {
    const c = program[i];
    if (c === '\\' && program[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && program[i] !== '\n') i++;
      continue;
    }
    if (c === '"') {
      let s = '';
      i++;
      while (i < n && program[i] !== '"') {
        if (program[i] === '\\') {
          s += program[i + 1] ?? '';
          i += 2;
        } else s += program[i++];
      }
      i++;
      toks.push({ t: 'str', s });
      continue;
    }
    if (c === '/' && !operandEnd()) {
      i++;
      let inClass = false;
      while (i < n && (program[i] !== '/' || inClass) && program[i] !== '\n') {
        if (program[i] === '\\') i++;
        else if (program[i] === '[') inClass = true;
        else if (program[i] === ']') inClass = false;
        i++;
      }
      i++;
      toks.push({ t: 're' });
      continue;
    }
    const two = program.slice(i, i + 2);
    if (['||', '&&', '>>', '|&', '>=', '<=', '==', '!=', '++', '--', '+=', '-=', '*=', '/=', '%=', '^='].includes(two)) {
      toks.push({ t: two });
      i += 2;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(program.slice(i));
    if (word) {
      toks.push({ t: word[0] });
      i += word[0].length;
      continue;
    }
    const num = /^[0-9.]+/.exec(program.slice(i));
    if (num) {
      toks.push({ t: num[0] });
      i += num[0].length;
      continue;
    }
    toks.push({ t: c === '\n' ? ';' : c });
    i++;
  }
  let depth = 0;
  let printDepth: number | undefined;
  for (const [k, tok] of toks.entries()) {
    const t = tok.t;
    if (t === '(' || t === '[') depth++;
    else if (t === ')' || t === ']') depth--;
    else if (t === 'system' && toks[k + 1]?.t === '(') out.execs = true;
    else if (t === '|' || t === '|&') out.execs = true;
    else if (t === 'print' || t === 'printf') printDepth = depth;
    else if (t === ';' || t === '{' || t === '}') printDepth = undefined;
    else if ((t === '>' || t === '>>') && printDepth === depth) {
      const target = toks[k + 1];
      // `print > "secrets/" "k"`: a name put together from parts is known only when it runs.
      const joined = /^(str|[A-Za-z_$(])/.test(toks[k + 2]?.t ?? '');
      if (target?.t === 'str' && !joined && !/^\/dev\/(stdout|stderr|null|fd\/[12])$/.test(target.s!)) out.writes.push(target.s!);
      else if (target?.t !== 'str' || joined) out.unknownWrite = true;
    } else if (t === '<' && (toks[k - 1]?.t === 'getline' || (toks[k - 2]?.t === 'getline' && /^[A-Za-z_$]/.test(toks[k - 1].t)))) {
      // `getline < "f"`, `getline line < "f"` (and `getline $0 < f`): the file is read.
      const target = toks[k + 1];
      const after = toks[k + 2]?.t;
      if (target?.t === 'str' && !/^(str|[A-Za-z_$])/.test(after ?? '')) out.reads.push(target.s!);
      else out.unknownRead = true;
    } else if (t === 'ARGV' && toks[k + 1]?.t === '[') {
      // `ARGV[1] = ".env"`: awk reads the files ARGV names when the program starts.
      let j = k + 1;
      while (j < toks.length && toks[j].t !== ']') j++;
      if (toks[j + 1]?.t === '=') {
        const target = toks[j + 2];
        if (target?.t === 'str' && !/^(str|[A-Za-z_$])/.test(toks[j + 3]?.t ?? '')) out.reads.push(target.s!);
        else out.unknownRead = true;
      }
    }
    if (t === '@' && /^(load|include|namespace)$/.test(toks[k + 1]?.t ?? '')) out.execs ||= toks[k + 1].t === 'load';
  }
  return out;
}
