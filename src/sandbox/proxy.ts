import { lookup } from 'node:dns/promises';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { allowedBy, isLocalAddress, namesLocalHost, type DomainPattern } from './domains.ts';

/** A connection the proxy refused: what the model is told (SPEC §13). */
export interface NetworkDenial {
  host: string;
  port: number;
  reason: string;
  at: number;
}

type Verdict = { address: string } | { reason: string };

/**
 * The sandbox's filtering HTTP proxy (SPEC §13): sandboxed commands reach the network only
 * through it, by `HTTP_PROXY`/`HTTPS_PROXY`. HTTPS and anything else tunnelled goes by `CONNECT
 * host:port`; plain HTTP by absolute-form requests. A destination is let through when an
 * `allowedDomains` entry covers its name and port; the name is resolved once, here, and a name
 * that leads to this machine's own addresses needs an entry that says so (`localhost`, an
 * address). Listens on a Unix socket only; every refusal is recorded in `denials`.
 */
export class FilterProxy {
  readonly denials: NetworkDenial[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<Duplex>();

  constructor(private readonly allowed: readonly DomainPattern[]) {
    this.server = createServer((req, res) => {
      void this.onRequest(req, res);
    });
    this.server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.onConnect(req, socket, head);
    });
    this.server.on('connection', (s: Socket) => {
      this.track(s);
    });
  }

  listen(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(path, () => {
        this.server.off('error', reject);
        this.server.unref();
        resolve();
      });
    });
  }

  /** Stops listening and cuts every open connection. */
  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
    });
  }

  private track(s: Duplex): void {
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
    s.on('error', () => {});
  }

  private async decide(host: string, port: number): Promise<Verdict> {
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    const entry = allowedBy(this.allowed, bare, port);
    if (!entry) return { reason: 'not in sandbox.network.allowedDomains' };
    let address = bare;
    if (isIP(bare) === 0) {
      try {
        address = (await lookup(bare)).address;
      } catch (e) {
        return { reason: `cannot be resolved (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
      }
    }
    if (isLocalAddress(address) && !namesLocalHost(entry))
      return { reason: `resolves to a local address (${address}); name it as localhost or by its address to allow that` };
    return { address };
  }

  private deny(host: string, port: number, reason: string): string {
    this.denials.push({ host, port, reason, at: Date.now() });
    return `The sandbox blocked ${host}:${port}: ${reason}.\n`;
  }

  private async onConnect(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    this.track(socket);
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(req.url ?? '');
    if (!m) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    const host = m[1];
    const port = Number(m[2]);
    const v = await this.decide(host, port);
    if ('reason' in v) {
      const body = this.deny(host, port, v.reason);
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nX-Proxy-Error: blocked-by-sandbox\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    const upstream = connect({ host: v.address, port });
    this.track(upstream);
    upstream.once('connect', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.once('error', (e: NodeJS.ErrnoException) => {
      if (socket.writable) socket.end(`HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n${host}:${port}: ${e.code ?? e.message}\n`);
    });
    socket.once('close', () => upstream.destroy());
    upstream.once('close', () => socket.destroy());
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('The sandbox proxy takes absolute http:// URLs (HTTPS goes by CONNECT).\n');
      return;
    }
    if (url.protocol !== 'http:') {
      res.writeHead(400).end('The sandbox proxy forwards http:// requests; HTTPS goes by CONNECT.\n');
      return;
    }
    const port = Number(url.port || 80);
    const v = await this.decide(url.hostname, port);
    if ('reason' in v) {
      res
        .writeHead(403, { 'content-type': 'text/plain', 'x-proxy-error': 'blocked-by-sandbox', connection: 'close' })
        .end(this.deny(url.hostname, port, v.reason));
      return;
    }
    const headers = { ...req.headers };
    for (const k of Object.keys(headers)) if (k.startsWith('proxy-')) delete headers[k];
    const up = request(
      { host: v.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers, agent: false },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on('error', (e: NodeJS.ErrnoException) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`${url.host}: ${e.code ?? e.message}\n`);
    });
    req.pipe(up);
  }
}
