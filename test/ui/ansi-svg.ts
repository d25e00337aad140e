/**
 * Renders a terminal capture (`tmux capture-pane -p -e`: text with SGR colour codes) as SVG, for
 * screenshots of the terminal UI (test/ui/screenshot.ts). Handles the 16 colours, 256 colours,
 * truecolour, bold, dim, italic, underline and inverse. Pure.
 */
import stringWidth from 'string-width';

const BASE16 = [
  '#1e1e1e',
  '#cd3131',
  '#0dbc79',
  '#e5e510',
  '#2472c8',
  '#bc3fbc',
  '#11a8cd',
  '#e5e5e5',
  '#666666',
  '#f14c4c',
  '#23d18b',
  '#f5f543',
  '#3b8eea',
  '#d670d6',
  '#29b8db',
  '#ffffff',
];
const FG = '#d4d4d4';
const BG = '#1e1e1e';

function color256(n: number): string {
  if (n < 16) return BASE16[n];
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v},${v},${v})`;
  }
  const i = n - 16;
  const c = (x: number) => (x === 0 ? 0 : 55 + x * 40);
  return `rgb(${c(Math.floor(i / 36))},${c(Math.floor(i / 6) % 6)},${c(i % 6)})`;
}

interface Style {
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

function applySgr(st: Style, params: number[]): Style {
  const s = { ...st };
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (p === 0) {
      for (const k of Object.keys(s)) delete (s as Record<string, unknown>)[k];
    } else if (p === 1) s.bold = true;
    else if (p === 2) s.dim = true;
    else if (p === 3) s.italic = true;
    else if (p === 4) s.underline = true;
    else if (p === 7) s.inverse = true;
    else if (p === 22) {
      s.bold = false;
      s.dim = false;
    } else if (p === 23) s.italic = false;
    else if (p === 24) s.underline = false;
    else if (p === 27) s.inverse = false;
    else if (p >= 30 && p <= 37) s.fg = BASE16[p - 30];
    else if (p >= 90 && p <= 97) s.fg = BASE16[p - 90 + 8];
    else if (p >= 40 && p <= 47) s.bg = BASE16[p - 40];
    else if (p >= 100 && p <= 107) s.bg = BASE16[p - 100 + 8];
    else if (p === 39) delete s.fg;
    else if (p === 49) delete s.bg;
    else if ((p === 38 || p === 48) && params[i + 1] === 5) {
      const c = color256(params[i + 2]);
      if (p === 38) s.fg = c;
      else s.bg = c;
      i += 2;
    } else if ((p === 38 || p === 48) && params[i + 1] === 2) {
      const c = `rgb(${params[i + 2]},${params[i + 3]},${params[i + 4]})`;
      if (p === 38) s.fg = c;
      else s.bg = c;
      i += 4;
    }
  }
  return s;
}

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function ansiToSvg(capture: string, o: { columns: number; title?: string } = { columns: 100 }): string {
  const cw = 8.4;
  const lh = 18;
  const pad = 12;
  const top = o.title ? 34 : pad;
  const lines = capture.replace(/\n+$/, '').split('\n');
  const out: string[] = [];
  lines.forEach((line, row) => {
    let st: Style = {};
    let col = 0;
    const y = top + row * lh;
    const re = /\x1b\[([0-9;]*)m|\x1b\[[0-9;?]*[A-Za-z]|([^\x1b]+)/g;
    for (const m of line.matchAll(re)) {
      if (m[1] !== undefined) {
        st = applySgr(st, m[1] === '' ? [0] : m[1].split(';').map(Number));
        continue;
      }
      if (!m[2]) continue;
      const text = m[2];
      const n = stringWidth(text); // cells: a CJK character takes two
      let fg = st.fg ?? FG;
      let bg = st.bg;
      if (st.inverse) {
        const f = fg;
        fg = bg ?? BG;
        bg = f;
      }
      const x = pad + col * cw;
      if (bg) out.push(`<rect x="${x.toFixed(1)}" y="${y - 13}" width="${(n * cw).toFixed(1)}" height="${lh}" fill="${bg}"/>`);
      const attrs = [`x="${x.toFixed(1)}"`, `y="${y}"`, `fill="${fg}"`];
      if (st.bold) attrs.push('font-weight="bold"');
      if (st.dim) attrs.push('opacity="0.6"');
      if (st.italic) attrs.push('font-style="italic"');
      if (st.underline) attrs.push('text-decoration="underline"');
      if (text.trim())
        out.push(`<text ${attrs.join(' ')} textLength="${(n * cw).toFixed(1)}" lengthAdjust="spacingAndGlyphs">${esc(text)}</text>`);
      col += n;
    }
  });
  const width = pad * 2 + o.columns * cw;
  const height = top + lines.length * lh + pad;
  const title = o.title
    ? `<rect width="${width}" height="26" fill="#333"/><circle cx="16" cy="13" r="5" fill="#ff5f56"/><circle cx="32" cy="13" r="5" fill="#ffbd2e"/><circle cx="48" cy="13" r="5" fill="#27c93f"/><text x="${width / 2}" y="17" fill="#aaa" text-anchor="middle" font-size="12">${esc(o.title)}</text>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans Mono, monospace" font-size="14" xml:space="preserve"><rect width="100%" height="100%" fill="${BG}"/>${title}${out.join('')}</svg>\n`;
}
