import pkg from '../../package.json' with { type: 'json' };

/**
 * The one Node story (README, `engines`, start-up, `doctor`): Node ≥ 22.12 is supported and tested.
 * An older Node that still runs the bundle gets a warning, never a silent pass nor a refusal:
 * Node 20 is past its end of life and the libraries we build on require 22.
 */
export const MIN_NODE = pkg.engines.node.replace(/^>=\s*/, '');

/** Undefined when `version` is supported; else the sentence to show. */
export function nodeWarning(version: string = process.versions.node): string | undefined {
  const [a, b, c] = version.split('.').map(Number);
  const [x, y, z] = MIN_NODE.split('.').map(Number);
  if (a !== x ? a > x : b !== y ? b > y : (c ?? 0) >= (z ?? 0)) return undefined;
  return `Node ${version} is older than the Node ${MIN_NODE} assistant needs; it may work, but it is not supported. Install Node ${MIN_NODE} or newer (nodejs.org, or \`nvm install 24\`).`;
}
