import { isIP } from 'node:net';
import type { Decision, PermissionMode } from './modes.ts';
import type { Rule, RuleSet } from './rules.ts';

/**
 * WebFetch's permission (SPEC §14): rules `WebFetch(domain:NAME)` allow, ask or deny a host and its
 * subdomains (`WebFetch` alone: every host); with no rule it asks; nothing is pre-approved.
 * Addresses on the machine's own network (localhost, private and link-local ranges) are refused
 * unless an allow or ask rule names that host exactly. Pure.
 */

/** The host a URL names (lower case, no brackets), or undefined when it is not an http(s) URL. */
export function urlHost(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return u.hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  } catch { return undefined; }
}

/** An IP address of this machine or its private network: loopback, RFC 1918, link-local, CGNAT, unique-local, unspecified. */
export function isPrivateAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) {
    const [a, b] = ip.split('.').map(Number);
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (v === 6) {
    const x = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
    if (mapped) return isPrivateAddress(mapped[1]);
    // The same in hex, as URL writes it: [::ffff:127.0.0.1] has the host ::ffff:7f00:1.
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(x);
    if (hex) { const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)]; return isPrivateAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`); }
    return x === '::1' || x === '::' || /^f[cd]/.test(x) || /^fe[89ab]/.test(x);
  }
  return false;
}

/** A host that is this machine or its private network by its name or its literal address. */
export function isLocalHost(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || isPrivateAddress(host);
}

const domainOf = (r: Rule) => (r.specifier?.startsWith('domain:') ? r.specifier.slice('domain:'.length).trim().toLowerCase().replace(/^\*\./, '') : undefined);

/** Does the rule cover this host (`domain:example.com` covers `docs.example.com`)? */
function covers(r: Rule, host: string): boolean {
  if (r.tool !== 'WebFetch') return false;
  if (r.specifier === undefined || r.specifier.trim() === '*') return true;
  const d = domainOf(r);
  return d !== undefined && (host === d || host.endsWith(`.${d}`));
}

/** An allow or ask rule that names this host itself (what a local address needs). */
export function namesHost(rules: RuleSet, host: string): boolean {
  return [...rules.allow, ...rules.ask].some((r) => r.tool === 'WebFetch' && domainOf(r) === host);
}

export function decideWebFetch(input: Record<string, unknown>, ctx: { rules: RuleSet; mode: PermissionMode }): Decision & { rule?: Rule } {
  const host = urlHost(input.url);
  if (host === undefined) return { behavior: 'deny', reason: `WebFetch needs an http:// or https:// URL, not ${JSON.stringify(input.url)}` };
  const deny = ctx.rules.deny.find((r) => covers(r, host));
  if (deny) return { behavior: 'deny', reason: `WebFetch of ${host} is denied by the rule "${deny.text}" (${deny.source})`, rule: deny };
  if (isLocalHost(host) && !namesHost(ctx.rules, host)) {
    return {
      behavior: 'deny',
      reason: `WebFetch of ${host} is refused: it is on this machine or its private network, which is reached only when a rule names it`,
      remedy: `--allowed-tools "WebFetch(domain:${host})"`,
    };
  }
  const ask = ctx.rules.ask.find((r) => covers(r, host));
  if (ask) return { behavior: 'ask', firm: true, reason: `WebFetch of ${host} matches the ask rule "${ask.text}" (${ask.source})`, rule: ask };
  const allow = ctx.rules.allow.find((r) => covers(r, host));
  if (allow) return { behavior: 'allow', reason: `allowed by the rule "${allow.text}" (${allow.source})`, rule: allow };
  if (ctx.mode === 'bypass') return { behavior: 'allow', reason: 'bypass mode runs everything' };
  return { behavior: 'ask', reason: `WebFetch of ${host} needs approval`, remedy: `--allowed-tools "WebFetch(domain:${host})"` };
}

/**
 * WebSearch runs on the provider's servers (SPEC §14), so no call of it can be asked about: it is
 * offered only when a rule allows it (`WebSearch`, or `WebSearch(domain:NAME)` to search only those
 * sites) or in Bypass mode, and never when a deny rule `WebSearch` is in force;
 * `WebSearch(domain:NAME)` deny rules keep those sites out of the results.
 */
export function webSearchOffer(rules: RuleSet, mode: PermissionMode): { allowedDomains?: string[]; blockedDomains?: string[] } | undefined {
  const of = (list: Rule[]) => list.filter((r) => r.tool === 'WebSearch');
  if (of(rules.deny).some((r) => r.specifier === undefined || r.specifier.trim() === '*')) return undefined;
  const allow = of(rules.allow);
  const whole = mode === 'bypass' || allow.some((r) => r.specifier === undefined || r.specifier.trim() === '*');
  if (!whole && allow.length === 0) return undefined;
  const domains = (list: Rule[]) => list.map(domainOf).filter((d): d is string => !!d);
  const allowedDomains = whole ? [] : domains(allow);
  const blockedDomains = domains(of(rules.deny));
  return { ...(allowedDomains.length ? { allowedDomains } : {}), ...(blockedDomains.length ? { blockedDomains } : {}) };
}
