import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';

/** Paths (relative to `cwd` or absolute) sorted newest modification first; ties by name. Unstattable ones go last. */
export async function sortByMtime(paths: string[], cwd: string): Promise<string[]> {
  const times = await Promise.all(
    paths.map((p) =>
      stat(resolve(cwd, p)).then(
        (s) => s.mtimeMs,
        () => 0,
      ),
    ),
  );
  const order = paths.map((p, i) => ({ p, t: times[i] }));
  order.sort((a, b) => b.t - a.t || (a.p < b.p ? -1 : a.p > b.p ? 1 : 0));
  return order.map((o) => o.p);
}
