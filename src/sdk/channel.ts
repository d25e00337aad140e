/** A queue between the run (push) and the caller's loop (next): unbounded, ends with close or an error. */
export class Channel<T> {
  private items: T[] = [];
  private waiting?: { resolve: (r: IteratorResult<T, undefined>) => void; reject: (e: unknown) => void };
  private ended = false;
  private error: { e: unknown } | undefined;

  push(item: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = undefined;
      w.resolve({ value: item, done: false });
    } else this.items.push(item);
  }

  close(): void {
    this.end();
  }

  fail(e: unknown): void {
    this.error = { e };
    this.end();
  }

  private end(): void {
    this.ended = true;
    const w = this.waiting;
    this.waiting = undefined;
    if (w && this.error) w.reject(this.error.e);
    else w?.resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.items.length) return Promise.resolve({ value: this.items.shift()!, done: false });
    if (this.ended) return this.error ? Promise.reject(this.error.e) : Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }
}
