/**
 * While the terminal UI owns the screen, nothing a library writes to the console may reach it:
 * a line written there lands in the middle of Ink's frame (or, with Ink's console patching, is
 * printed above it on every redraw and stays in the scrollback). So the console's methods and
 * Node's own process warnings are silenced until `restore()` runs. Our code never reports to the
 * user through the console; it adds notices to the session instead.
 */
const METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table'] as const;

export function quietConsole(): () => void {
  const saved = METHODS.map((m) => [m, console[m]] as const);
  const noop = () => undefined;
  for (const m of METHODS) (console as unknown as Record<string, unknown>)[m] = noop;
  // Node prints process warnings (deprecations, listener leaks) to stderr through its own listener.
  const warningListeners = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', noop);
  return () => {
    for (const [m, f] of saved) (console as unknown as Record<string, unknown>)[m] = f;
    process.off('warning', noop);
    for (const l of warningListeners) process.on('warning', l);
  };
}
