// Where outbound calls may go: the pure rules of the egress gate (runtime/egress/gate.ts applies
// them to every request and every address it connects to).
//
// Invariants:
//  - A destination is a host and a port; an allow-list entry names exactly one of each (no
//    wildcards, no "any port"). A host is compared in one canonical form: lowercase, an
//    internationalised name as punycode, no trailing dot, an IPv6 literal without brackets.
//  - A name allowed by the list is not yet a place one may connect to: every address it resolves
//    to at connect time is checked again, so a name that later resolves to an internal address
//    (DNS rebinding) cannot reach it. Loopback, private, link-local, shared (CGNAT), multicast and
//    reserved addresses are refused unless the operator allows private egress.
//  - Nothing here does I/O.
import { isIP } from 'node:net';

/** What the gate checks a request against. */
export type EgressDestination = { host: string; port: number };

/** The default port of a URL's scheme (only http and https are reached out to). */
export function defaultPort(protocol: string): number | null {
  if (protocol === 'https:') return 443;
  if (protocol === 'http:') return 80;
  return null;
}

/** A URL's destination in canonical form, or null when it is not an http(s) URL. */
export function destinationOf(url: URL): EgressDestination | null {
  const fallback = defaultPort(url.protocol);
  if (fallback === null) return null;
  const port = url.port ? Number(url.port) : fallback;
  return { host: canonicalHost(url.hostname), port };
}

/** Lowercase, brackets and a trailing dot removed (URL has already turned an IDN into punycode). */
export function canonicalHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

export const MAX_EGRESS_ENTRY_LENGTH = 260;

/**
 * An owner's entry (`host`, `host:port`, `[v6]:port`), or a sentence saying what is wrong with it.
 * A port is required unless the entry is meant for https (443, the default).
 */
export function parseEgressEntry(raw: string, port?: number | null): EgressDestination | { problem: string } {
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { problem: 'host must not contain control characters or line breaks' };
  const s = raw.trim();
  if (!s) return { problem: 'host must not be empty' };
  if (s.length > MAX_EGRESS_ENTRY_LENGTH) return { problem: `host must be at most ${MAX_EGRESS_ENTRY_LENGTH} characters` };
  if (/[\s/?#@\\*%]/.test(s)) {
    return { problem: 'host must be a host name or an IP address with an optional :port — no scheme, path, user, wildcard or spaces' };
  }
  let u: URL;
  try {
    u = new URL(`https://${s}`);
  } catch {
    return { problem: `${JSON.stringify(s.slice(0, 80))} is not a host name or IP address` };
  }
  if (u.username || u.password || u.pathname !== '/' || u.search || u.hash) return { problem: 'host must be a host name or an IP address with an optional :port' };
  const host = canonicalHost(u.hostname);
  if (!host) return { problem: 'host must not be empty' };
  if (!isIP(host) && !/^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/.test(host)) {
    return { problem: `${JSON.stringify(s.slice(0, 80))} is not a host name or IP address` };
  }
  // URL drops a port equal to the scheme's default (443): read what was written.
  const written = /^(?:\[[^\]]*\]|[^:]*):(\d+)$/.exec(s);
  const inline = written ? Number(written[1]) : null;
  if (inline !== null && port != null && inline !== port) return { problem: 'the port is given twice, differently' };
  const p = inline ?? port ?? 443;
  if (!Number.isInteger(p) || p < 1 || p > 65535) return { problem: 'port must be a whole number from 1 to 65535' };
  return { host, port: p };
}

/** `host:port`, with an IPv6 literal in brackets: how an entry and a denial are shown. */
export function formatDestination(d: EgressDestination): string {
  return `${isIP(d.host) === 6 ? `[${d.host}]` : d.host}:${d.port}`;
}

export function sameDestination(a: EgressDestination, b: EgressDestination): boolean {
  return a.host === b.host && a.port === b.port;
}

/** Why an address may not be connected to (a word for the denial), or null when it is a public address. */
export type AddressClass = 'loopback' | 'private' | 'link-local' | 'shared' | 'unspecified' | 'multicast' | 'reserved';

export function addressClass(address: string): AddressClass | null {
  const kind = isIP(address);
  if (kind === 4) return ipv4Class(address);
  if (kind === 6) return ipv6Class(address);
  return 'reserved';
}

function ipv4Class(a: string): AddressClass | null {
  const [x, y] = a.split('.').map(Number) as [number, number, number, number];
  if (x === 0) return 'unspecified';
  if (x === 127) return 'loopback';
  if (x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168)) return 'private';
  if (x === 169 && y === 254) return 'link-local';
  if (x === 100 && y >= 64 && y <= 127) return 'shared';
  if (x >= 224 && x <= 239) return 'multicast';
  // 192.0.0/24 (protocol assignments), 192.0.2/24, 198.51.100/24, 203.0.113/24 (documentation),
  // 198.18/15 (benchmarking), 240/4 and the broadcast address.
  if ((x === 192 && y === 0) || (x === 198 && (y === 18 || y === 19)) || (x === 198 && y === 51) || (x === 203 && y === 0) || x >= 240) return 'reserved';
  return null;
}

/** The 8 groups of an IPv6 address as numbers (:: expanded, an embedded IPv4 tail converted). */
function ipv6Groups(a: string): number[] {
  let s = a.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const [p, q, r, t] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    s = `${s.slice(0, -v4[1]!.length)}${((p << 8) | q).toString(16)}:${((r << 8) | t).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? (s.split('::') as [string, string]) : [s, null];
  const h = head ? head.split(':') : [];
  const t = tail === null ? [] : tail ? tail.split(':') : [];
  const fill = tail === null ? [] : new Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((g) => parseInt(g || '0', 16));
}

function ipv6Class(a: string): AddressClass | null {
  const g = ipv6Groups(a);
  if (g.length !== 8) return 'reserved';
  const zeroHead = g.slice(0, 5).every((x) => x === 0);
  if (zeroHead && g[5] === 0 && g[6] === 0 && g[7] === 0) return 'unspecified';
  if (zeroHead && g[5] === 0 && g[6] === 0 && g[7] === 1) return 'loopback';
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible: the IPv4 address decides.
  if (zeroHead && g[5] === 0xffff) return ipv4Class(v4(g[6]!, g[7]!));
  if (zeroHead && g[5] === 0) return ipv4Class(v4(g[6]!, g[7]!));
  // NAT64 (64:ff9b::/96) reaches the embedded IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4Class(v4(g[6]!, g[7]!));
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((first & 0xffc0) === 0xfec0) return 'private'; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return 'multicast';
  if (first === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (first === 0x2002) {
    // 6to4 carries an IPv4 address in groups 1–2.
    return ipv4Class(v4(g[1]!, g[2]!));
  }
  return null;
}

export type EgressRule =
  /** The destination is on the workspace's list (or is the deployment's own provider). */
  | 'listed'
  | 'deployment'
  /** Refusals: */
  | 'not-listed'
  | 'not-http'
  | 'private-address'
  | 'redirect-not-allowed';

export type EgressDecision = { allowed: true; rule: 'listed' | 'deployment' } | { allowed: false; rule: Exclude<EgressRule, 'listed' | 'deployment'>; reason: string };

/**
 * Whether a request to `dest` may be sent: a deployment call (the operator's providers) may reach
 * the operator's configured hosts; a workspace's call only what that workspace allows.
 */
export function decideDestination(
  dest: EgressDestination | null,
  allowed: { workspace: readonly EgressDestination[]; deployment: readonly EgressDestination[] },
  scope: 'workspace' | 'deployment',
): EgressDecision {
  if (!dest) return { allowed: false, rule: 'not-http', reason: 'only http and https addresses are reached out to' };
  if (scope === 'deployment' && allowed.deployment.some((d) => sameDestination(d, dest))) return { allowed: true, rule: 'deployment' };
  if (scope === 'workspace' && allowed.workspace.some((d) => sameDestination(d, dest))) return { allowed: true, rule: 'listed' };
  return {
    allowed: false,
    rule: 'not-listed',
    reason:
      scope === 'workspace'
        ? `${formatDestination(dest)} is not on the workspace's list of allowed hosts; an owner can add it`
        : `${formatDestination(dest)} is not a provider the operator configured`,
  };
}

/** Whether an address the destination resolved to may be connected to. */
export function decideAddress(dest: EgressDestination, address: string, allowPrivate: boolean): EgressDecision | null {
  if (allowPrivate) return null;
  const cls = addressClass(address);
  if (!cls) return null;
  return {
    allowed: false,
    rule: 'private-address',
    reason: `${formatDestination(dest)} resolves to a ${cls} address (${address}); this installation does not reach internal addresses`,
  };
}
