import { isIP } from 'node:net';

/** One entry of `sandbox.network.allowedDomains`: `example.com`, `*.example.com`, `host:8080`, `[::1]:3000`. */
export interface DomainPattern {
  /** Lower case, without brackets; `*.` kept for wildcards. */
  host: string;
  port?: number;
  text: string;
}

/** Parses an entry; returns an error message for a malformed one. */
export function parseDomain(text: string): DomainPattern | string {
  const t = text.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[^:\s/]+)(?::(\d{1,5}))?$/.exec(t);
  if (!m) return `"${text}" is not a host name (write example.com, *.example.com or host:port, without a scheme or path)`;
  const host = m[1].startsWith('[') ? m[1].slice(1, -1) : m[1];
  if (host.includes('*') && !/^\*\.[^*]+$/.test(host)) return `"${text}": a wildcard may only start the name (*.example.com)`;
  const port = m[2] === undefined ? undefined : Number(m[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return `"${text}": the port must be between 1 and 65535`;
  return { host, port, text };
}

/** `*.example.com` covers `a.example.com` and `a.b.example.com`, not `example.com` (as in Claude Code). */
function hostMatches(pattern: string, host: string): boolean {
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/** The pattern that lets a connection to `host:port` through, if any. Host names compare without case and a trailing dot. */
export function allowedBy(patterns: readonly DomainPattern[], host: string, port: number): DomainPattern | undefined {
  let h = host.toLowerCase().replace(/\.$/, '');
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return patterns.find((p) => (p.port === undefined || p.port === port) && hostMatches(p.host, h));
}

/**
 * Loopback, link-local and unspecified addresses: a host name that resolves to one reaches this
 * machine's own services, so only an entry that names it plainly (`localhost`, an address) allows
 * that (a DNS name pointed at 127.0.0.1 does not).
 */
export function isLocalAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  if (isIP(a) === 4) return a.startsWith('127.') || a.startsWith('169.254.') || a.startsWith('0.');
  return a === '::1' || a === '::' || a.startsWith('fe8') || a.startsWith('fe9') || a.startsWith('fea') || a.startsWith('feb');
}

/** Does the entry name this machine plainly, so that reaching a local address through it was asked for? */
export function namesLocalHost(p: DomainPattern): boolean {
  return p.host === 'localhost' || p.host.endsWith('.localhost') || isIP(p.host) !== 0;
}
