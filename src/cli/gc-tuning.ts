/**
 * Every model turn builds its request anew (the whole conversation), which is garbage by the next
 * turn; V8 keeps growing its young generation for that garbage, and a long session's memory with
 * it. Held at its first size, a 300-turn session peaks at ~160 MiB instead of ~225 MiB, at the same
 * speed (bench/long.ts; bench/README.md). Set once a session is open, not at start: changing a V8
 * flag makes Node's code cache miss for the built-ins loaded after it (~10 ms if done first thing).
 * The CLI only: the SDK leaves its host's V8 alone.
 */
export function holdYoungGeneration(): void {
  try {
    (process.getBuiltinModule?.('node:v8') as typeof import('node:v8') | undefined)?.setFlagsFromString('--semi-space-growth-factor=1');
  } catch { /* a Node without the flag: the default sizing */ }
}
