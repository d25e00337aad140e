import { Box, Text } from 'ink';
import stringWidth from 'string-width';
import type { PermissionMode } from '../../permissions/modes.ts';
import { formatCost, formatTokens, MODE_LABELS } from '../format.ts';

const MODE_COLOURS: Record<PermissionMode, string | undefined> = {
  normal: undefined,
  'auto-accept': 'magenta',
  plan: 'cyan',
  bypass: 'red',
};
const HINT = ' (shift+tab to cycle)';
/** Columns kept free between the mode and the status. */
const GAP = 2;

/**
 * What the footer line holds at this width: the mode always; the Shift+Tab hint and the status
 * (model · context · cost) as far as they fit with a gap between. The hint goes first, then the
 * status shortens to context and cost, then it goes too. Pure.
 */
function footerParts(mode: PermissionMode, status: string, short: string, width: number): { mode: string; hint: string; status: string } {
  const m = MODE_LABELS[mode];
  const left = `  ${m.icon} ${m.text}`;
  const fits = (l: string, r: string) => stringWidth(l) + (r ? GAP + stringWidth(r) : 0) <= width;
  for (const [hint, right] of [
    [HINT, status],
    ['', status],
    [HINT, short],
    ['', short],
    [HINT, ''],
    ['', ''],
  ] as const) {
    if (fits(left + hint, right)) return { mode: left, hint, status: right };
  }
  return { mode: left, hint: '', status: '' };
}

/** Under the input: the mode (always visible, SPEC §5) on the left; model, context used and cost on the right. */
export function Footer({
  mode,
  model,
  context,
  costUsd,
  hint,
  width,
}: {
  mode: PermissionMode;
  model: string;
  context: { used: number; window: number };
  costUsd: number;
  hint?: string;
  width: number;
}) {
  const pct = context.window > 0 ? Math.min(100, Math.round((context.used / context.window) * 100)) : 0;
  const status = `${model} · ctx ${pct}% (${formatTokens(context.used)}) · ${formatCost(costUsd)}`;
  const p = footerParts(mode, status, `ctx ${pct}% · ${formatCost(costUsd)}`, width);
  return (
    <Box flexDirection="column" width={width}>
      {hint && <Text color="yellow"> {hint}</Text>}
      <Box justifyContent="space-between">
        <Text wrap="truncate-end" color={MODE_COLOURS[mode]}>
          {p.mode}
          <Text dimColor>{p.hint}</Text>
        </Text>
        {p.status && <Text dimColor>{p.status}</Text>}
      </Box>
    </Box>
  );
}
