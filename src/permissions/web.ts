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
    return u.hostname
      .toLowerCase()
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

/** An IP address of this machine or its private network: loopback, RFC 1918, link-local, CGNAT, unique-local, unspecified. */
export function isPrivateAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) {
    const [a, b] = ip.split('.').map(Number);
    return (
      a === 127 ||
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (v === 6) {
    const x = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
    if (mapped) return isPrivateAddress(mapped[1]);
    // The same in hex, as URL writes it: [::ffff:127.0.0.1] has the host ::ffff:7f00:1.
    const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(x);
    if (hex) {
      const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
      return isPrivateAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    return x === '::1' || x === '::' || /^f[cd]/.test(x) || /^fe[89ab]/.test(x);
  }
  return false;
}

/** A host that is this machine or its private network by its name or its literal address. */
export function isLocalHost(host: string): boolean {
  return (
    host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || isPrivateAddress(host)
  );
}

const domainOf = (r: Rule) =>
  r.specifier?.startsWith('domain:') ? r.specifier.slice('domain:'.length).trim().toLowerCase().replace(/^\*\./, '') : undefined;

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
  if (host === undefined)
    return { behavior: 'deny', reason: `WebFetch needs an http:// or https:// URL, not ${JSON.stringify(input.url)}` };
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
  if (ask)
    return { behavior: 'ask', firm: true, reason: `WebFetch of ${host} matches the ask rule "${ask.text}" (${ask.source})`, rule: ask };
  const allow = ctx.rules.allow.find((r) => covers(r, host));
  if (allow) return { behavior: 'allow', reason: `allowed by the rule "${allow.text}" (${allow.source})`, rule: allow };
  if (ctx.mode === 'bypass') return { behavior: 'allow', reason: 'bypass mode runs everything' };
  return { behavior: 'ask', reason: `WebFetch of ${host} needs approval`, remedy: `--allowed-tools "WebFetch(domain:${host})"` };
}

/** The scope of one search: the sites it may return (none: any), and the sites it must not. */
export interface SearchScope {
  allowedDomains?: string[];
  blockedDomains?: string[];
}

/** A domain as a call or a rule writes it (`https://Docs.Python.org/3/`, `*.python.org`), bare and lower case. */
export function bareDomain(d: string): string {
  return d
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^\*\./, '')
    .replace(/\.$/, '');
}

/** Is `host` the domain `d` or one of its subdomains? */
export const withinDomain = (host: string, d: string) => host === d || host.endsWith(`.${d}`);

const searchRules = (list: Rule[]) => list.filter((r) => r.tool === 'WebSearch');
const wholeTool = (r: Rule) => r.specifier === undefined || r.specifier.trim() === '*';
const ruleDomains = (list: Rule[]) => list.map(domainOf).filter((d): d is string => !!d);
const domainList = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .filter((d): d is string => typeof d === 'string')
        .map(bareDomain)
        .filter(Boolean)
    : [];

/**
 * What one WebSearch call may search (SPEC §14): the call's own `allowed_domains` (else, unless
 * `WebSearch` itself is allowed or the mode is Bypass, the domains of `WebSearch(domain:…)` allow
 * rules), minus the call's `blocked_domains` and the domains of `WebSearch(domain:…)` deny rules,
 * which are always blocked. A string when nothing would be left to search.
 */
export function webSearchScope(input: Record<string, unknown>, rules: RuleSet, mode: PermissionMode): SearchScope | string {
  const blocked = [...new Set([...domainList(input.blocked_domains), ...ruleDomains(searchRules(rules.deny))])];
  const asked = domainList(input.allowed_domains);
  const allowRules = searchRules(rules.allow);
  const byRule = mode === 'bypass' || allowRules.some(wholeTool) ? [] : ruleDomains(allowRules);
  const wanted = asked.length ? asked : byRule;
  const allowed = [...new Set(wanted.filter((d) => !blocked.some((b) => withinDomain(d, b))))];
  if (wanted.length && !allowed.length) return `every site this search may use (${wanted.join(', ')}) is blocked (${blocked.join(', ')})`;
  return { ...(allowed.length ? { allowedDomains: allowed } : {}), ...(blocked.length ? { blockedDomains: blocked } : {}) };
}

/**
 * WebSearch's permission (SPEC §14), shaped like WebFetch's: a deny rule `WebSearch` refuses it;
 * Bypass runs it; an ask rule naming it asks; `WebSearch` allows any search, `WebSearch(domain:NAME)`
 * the searches that stay within its sites (a call naming no sites is then kept to them); with no
 * rule it asks, in Plan Mode too (it only reads). `WebSearch(domain:NAME)` deny rules do not refuse
 * the call: those sites are kept out of its results (`webSearchScope`). Pure.
 */
export function decideWebSearch(input: Record<string, unknown>, ctx: { rules: RuleSet; mode: PermissionMode }): Decision & { rule?: Rule } {
  const deny = searchRules(ctx.rules.deny).find(wholeTool);
  if (deny) return { behavior: 'deny', reason: `WebSearch is denied by the rule "${deny.text}" (${deny.source})`, rule: deny };
  const scope = webSearchScope(input, ctx.rules, ctx.mode);
  if (typeof scope === 'string') return { behavior: 'deny', reason: `WebSearch refused: ${scope} by the call or a rule` };
  if (ctx.mode === 'bypass') return { behavior: 'allow', reason: 'bypass mode runs everything' };
  const ask = searchRules(ctx.rules.ask)[0];
  if (ask) return { behavior: 'ask', firm: true, reason: `WebSearch matches the ask rule "${ask.text}" (${ask.source})`, rule: ask };
  const allowRules = searchRules(ctx.rules.allow);
  const whole = allowRules.find(wholeTool);
  if (whole) return { behavior: 'allow', reason: `allowed by the rule "${whole.text}" (${whole.source})`, rule: whole };
  const asked = domainList(input.allowed_domains);
  const within = allowRules.filter((r) => domainOf(r) !== undefined);
  const fits = (d: string) => within.some((r) => withinDomain(d, domainOf(r)!));
  if (within.length && asked.every(fits))
    return {
      behavior: 'allow',
      reason: `allowed by the rule "${within[0].text}" (${within[0].source})${asked.length ? '' : `, searching only ${ruleDomains(within).join(', ')}`}`,
      rule: within[0],
    };
  const query = typeof input.query === 'string' ? ` for "${input.query.length > 60 ? `${input.query.slice(0, 57)}...` : input.query}"` : '';
  return { behavior: 'ask', reason: `WebSearch${query} needs approval`, remedy: '--allowed-tools "WebSearch"' };
}
