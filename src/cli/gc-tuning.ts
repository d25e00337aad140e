/**
 * Every model turn builds its request anew (the whole conversation), which is garbage by the next
 * turn. V8 keeps growing its young generation for that garbage, and lets the old generation grow to
 * several times what is alive before it collects it (the request's JSON, hundreds of KiB late in a
 * session, lands in the large-object space); a long session's memory grows with both. Held at its
 * first size and grown by half of what is alive, a 600-turn session stays near its 200-turn size
 * (bench/long.ts; bench/README.md). Set once a session is open, not at start: changing a V8 flag
 * makes Node's code cache miss for the built-ins loaded after it (~10 ms if done first thing).
 * The CLI only: the SDK leaves its host's V8 alone.
 */
export function holdYoungGeneration(): void {
  try {
    const v8 = process.getBuiltinModule?.('node:v8') as typeof import('node:v8') | undefined;
    v8?.setFlagsFromString('--semi-space-growth-factor=1');
    v8?.setFlagsFromString('--heap-growing-percent=50');
  } catch {
    /* a Node without the flag: the default sizing */
  }
}
