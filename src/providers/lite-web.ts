/**
 * `Headers` and `Response` as far as the AI SDK uses them on a model request, without Node's
 * bundled undici: the first touch of the global `Headers` or `Response` loads all of it (+17 MiB
 * resident, tens of ms), though the requests themselves go out on node:http (http-post.ts).
 * scripts/build.mjs gives `@ai-sdk/provider-utils` this `Headers` in place of the global one (it
 * builds one per request for its user-agent header); http-post.ts answers with this `Response`.
 * Where `fetch` itself is used (a proxy, a redirect, the web tools), undici's own classes are.
 */

/** Real `Headers` or ours: the AI SDK checks `instanceof Headers` on what it is given. */
function headersLike(x: unknown): x is { forEach(cb: (value: string, key: string) => void): void } {
  return (
    typeof x === 'object' &&
    x !== null &&
    !Array.isArray(x) &&
    typeof (x as Headers).forEach === 'function' &&
    typeof (x as Headers).get === 'function' &&
    typeof (x as Headers).append === 'function'
  );
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** As undici's `Headers` checks them (the same messages). */
function checkName(name: string, op: string): string {
  const n = String(name);
  if (!TOKEN.test(n)) throw new TypeError(`Headers.${op}: "${n}" is an invalid header name.`);
  return n.toLowerCase();
}
function checkValue(value: string, op: string): string {
  const v = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (/[\0\r\n]/.test(v)) throw new TypeError(`Headers.${op}: "${v}" is an invalid header value.`);
  return v;
}

export class LiteHeaders {
  readonly #map = new Map<string, string>();

  static [Symbol.hasInstance](x: unknown): boolean {
    return headersLike(x);
  }

  constructor(
    init?:
      | Record<string, string>
      | Iterable<readonly [string, string]>
      | { forEach(cb: (value: string, key: string) => void): void }
      | null,
  ) {
    if (init == null) return;
    if (headersLike(init)) init.forEach((v, k) => this.append(k, v));
    else if (typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function') {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (pair.length !== 2) throw new TypeError('Headers constructor: expected name/value pair to be length 2');
        this.append(pair[0], pair[1]);
      }
    } else for (const [k, v] of Object.entries(init as Record<string, string>)) this.append(k, v);
  }

  append(name: string, value: string): void {
    const k = checkName(name, 'append');
    const v = checkValue(value, 'append');
    const had = this.#map.get(k);
    this.#map.set(k, had === undefined ? v : `${had}, ${v}`);
  }
  set(name: string, value: string): void {
    this.#map.set(checkName(name, 'set'), checkValue(value, 'set'));
  }
  get(name: string): string | null {
    return this.#map.get(String(name).toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#map.has(String(name).toLowerCase());
  }
  delete(name: string): void {
    this.#map.delete(String(name).toLowerCase());
  }
  getSetCookie(): string[] {
    const c = this.#map.get('set-cookie');
    return c === undefined ? [] : [c];
  }
  forEach(cb: (value: string, key: string, parent: LiteHeaders) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) cb.call(thisArg, v, k, this);
  }
  /** Sorted by name, as `Headers` iterates. */
  *entries(): IterableIterator<[string, string]> {
    for (const k of [...this.#map.keys()].sort()) yield [k, this.#map.get(k)!];
  }
  *keys(): IterableIterator<string> {
    for (const [k] of this.entries()) yield k;
  }
  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

/** A response whose body streams from node:http: what the AI SDK reads of a `fetch` response. */
export class LiteResponse {
  readonly type = 'basic';
  readonly redirected = false;
  readonly headers: LiteHeaders;
  #used = false;

  constructor(
    readonly body: ReadableStream<Uint8Array> | null,
    readonly status: number,
    readonly statusText: string,
    headers: LiteHeaders,
    readonly url: string,
  ) {
    if (!Number.isInteger(status) || status < 200 || status > 599)
      throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive (got ${status})`);
    this.headers = headers;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
  get bodyUsed(): boolean {
    return this.#used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  async bytes(): Promise<Uint8Array> {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    if (!this.body) return new Uint8Array(0);
    const parts: Uint8Array[] = [];
    let n = 0;
    for await (const chunk of this.body) {
      parts.push(chunk);
      n += chunk.byteLength;
    }
    const out = new Uint8Array(n);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  get [Symbol.toStringTag](): string {
    return 'Response';
  }
}
