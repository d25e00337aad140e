/** A minimal external store for React's useSyncExternalStore: one value, replaced, never mutated. */
export class Store<T> {
  private listeners = new Set<() => void>();
  constructor(private value: T) {}
  get = (): T => this.value;
  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };
  update(fn: (v: T) => T): void {
    const next = fn(this.value);
    if (next === this.value) return;
    this.value = next;
    for (const l of this.listeners) l();
  }
}
