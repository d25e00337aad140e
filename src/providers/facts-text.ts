import type { ModelHandle } from './types.ts';

const yesNo = (v: boolean | undefined) => (v === undefined ? 'not known (sent; the server decides)' : v ? 'yes' : 'no');
const usd = (n: number) => `$${Number(n.toFixed(4))}`;

/**
 * What `/status` says of a model beyond its window (SPEC §11.14): prices, images, thinking, and
 * where those figures come from. One `label: value` pair a line, in `pad` columns.
 */
export function modelFactsLines(m: Pick<ModelHandle, 'facts' | 'provider'>): Array<[string, string]> {
  const f = m.facts;
  if (!f || m.provider === 'replay') return [];
  const lines: Array<[string, string]> = [];
  lines.push([
    'prices',
    f.price ? `${usd(f.price[0])} in, ${usd(f.price[1])} out, ${usd(f.price[2])} cached per million tokens` : 'not known (cost shows $0)',
  ]);
  lines.push(['images', yesNo(f.images)]);
  lines.push(['thinking', `${f.thinking ?? "the provider's default"}${f.reasoning === false ? ' (the model does not reason)' : ''}`]);
  if (f.source) lines.push(['facts from', f.source]);
  return lines;
}

/** The lines of `modelFactsLines` as `-p /status` prints them (`label: value`). */
export function modelFactsText(m: Pick<ModelHandle, 'facts' | 'provider'>): string {
  return modelFactsLines(m)
    .map(([k, v]) => `${k}: ${v}\n`)
    .join('');
}
