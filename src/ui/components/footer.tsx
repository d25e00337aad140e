import { Box, Text } from 'ink';
import type { PermissionMode } from '../../permissions/modes.ts';
import { formatCost, formatTokens, MODE_LABELS } from '../format.ts';

const MODE_COLOURS: Record<PermissionMode, string | undefined> = { normal: undefined, 'auto-accept': 'magenta', plan: 'cyan', bypass: 'red' };

/** Under the input: the mode (always visible, SPEC §5) on the left; model, context used and cost on the right. */
export function Footer({ mode, model, context, costUsd, hint, width }: { mode: PermissionMode; model: string; context: { used: number; window: number }; costUsd: number; hint?: string; width: number }) {
  const m = MODE_LABELS[mode];
  const pct = context.window > 0 ? Math.min(100, Math.round((context.used / context.window) * 100)) : 0;
  const status = `${model} · ctx ${pct}% (${formatTokens(context.used)}) · ${formatCost(costUsd)}`;
  return (
    <Box flexDirection="column" width={width}>
      {hint && <Text color="yellow">  {hint}</Text>}
      <Box justifyContent="space-between">
        <Text color={MODE_COLOURS[mode]}>  {m.icon} {m.text} <Text dimColor>(shift+tab to cycle)</Text></Text>
        <Text dimColor>{status.length > width - 40 ? `ctx ${pct}% · ${formatCost(costUsd)}` : status}</Text>
      </Box>
    </Box>
  );
}
