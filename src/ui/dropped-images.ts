import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageType } from '../fs/image-file.ts';

/**
 * The paths of a paste, split the way terminals write a dragged file or a copied path: plain,
 * in single or double quotes (GNOME Terminal, Konsole), with `\ ` escapes (iTerm2, kitty,
 * Terminal.app) or as `file://` URLs; several separated by blanks or lines. Undefined when the
 * paste does not read as paths only.
 */
export function pastedPaths(text: string): string[] | undefined {
  const out: string[] = [];
  const s = text.trim();
  let i = 0;
  while (i < s.length) {
    while (i < s.length && /\s/.test(s[i])) i++;
    if (i >= s.length) break;
    let word = '';
    if (s[i] === "'" || s[i] === '"') {
      const q = s[i];
      const end = s.indexOf(q, i + 1);
      if (end < 0) return undefined;
      word = s.slice(i + 1, end);
      i = end + 1;
      if (i < s.length && !/\s/.test(s[i])) return undefined;
    } else {
      while (i < s.length && !/\s/.test(s[i])) {
        if (s[i] === '\\' && i + 1 < s.length) {
          word += s[i + 1];
          i += 2;
        } else word += s[i++];
      }
    }
    if (word.startsWith('file://')) {
      try {
        word = fileURLToPath(word);
      } catch {
        return undefined;
      }
    }
    out.push(word);
  }
  return out.length ? out : undefined;
}

/**
 * A paste that is only paths of existing images (a screenshot dragged into the terminal, or its
 * path pasted) becomes `@` references, so the images are attached when the prompt is sent
 * (SPEC §3; the same path as `@shot.png`). Anything else: undefined, and the paste goes in as is.
 */
export function imageReferences(text: string, cwd: string, home: string): { text: string; paths: string[] } | undefined {
  if (text.length > 4096 || text.includes('\n\n')) return undefined;
  const paths = pastedPaths(text);
  if (!paths) return undefined;
  const refs: string[] = [];
  const abses: string[] = [];
  for (const p of paths) {
    if (!imageType(p)) return undefined;
    const abs = p.startsWith('~/') ? resolve(home, p.slice(2)) : isAbsolute(p) ? p : resolve(cwd, p);
    try {
      if (!statSync(abs).isFile()) return undefined;
    } catch {
      return undefined;
    }
    abses.push(abs);
    refs.push(/[\s"]/.test(abs) ? `@'${abs}'` : /'/.test(abs) ? `@"${abs}"` : `@${abs}`);
  }
  return { text: `${refs.join(' ')} `, paths: abses };
}
