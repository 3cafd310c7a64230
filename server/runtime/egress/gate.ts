// The egress gate: every outbound HTTP request the server makes for a workspace (MCP servers over
// HTTP, webhook deliveries, remote agents) or for the deployment (the operator's providers) goes
// through egressFetch. The rules are in domain/egress-policy.ts; this module applies them.
//
// Invariants:
//  - A workspace's request reaches only a host:port on that workspace's list (egress_hosts), read
//    for every request: a revoked entry denies the very next request, in every process.
//  - A deployment request (workspaceId null) reaches only the hosts the operator configured
//    (OPENAI_BASE_URL, the provider service, …) and the hosts a caller names for that one request.
//  - Every address a name resolves to is checked before connecting, and the connection can only go
//    to a checked address (http.ts): loopback, private and link-local addresses are refused unless
//    the operator allows private egress — even for a listed name.
//  - Redirects are followed here, one hop at a time, each hop checked like the first (a hop to a
//    host that is not allowed is EGRESS_DENIED), credentials dropped when the origin changes; a
//    caller asking for `redirect: 'manual'` gets the 3xx answer itself.
//  - A denial throws EgressDenied (AppError EGRESS_DENIED) before anything is sent to that host.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { PrismaClient } from '../../db/client.ts';
import {
  decideAddress,
  decideDestination,
  destinationOf,
  formatDestination,
  type EgressDecision,
  type EgressDestination,
  type EgressRule,
} from '../../domain/egress-policy.ts';
import { AppError } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import { allowedDestinations } from '../../store/egress/hosts.ts';
import { createAgents, exchange, type Agents, type CheckedAddress } from './http.ts';

/** Resolves a host name to all its addresses (dns.lookup by default; tests give their own). */
export type Resolve = (hostname: string) => Promise<CheckedAddress[]>;

export type EgressGateOptions = {
  /** Loopback, private and link-local addresses may be reached (ATELIER_EGRESS_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** The operator's own destinations (its providers): deployment requests may reach these, whatever their address. */
  deployment?: readonly EgressDestination[];
  resolve?: Resolve;
  /** Redirect hops followed at most (fetch's own limit is 20). */
  maxRedirects?: number;
};

export type EgressDenial = {
  workspaceId: string | null;
  host: string;
  port: number;
  rule: Exclude<EgressRule, 'listed' | 'deployment'>;
  reason: string;
};

/** An outbound request the gate refused; nothing was sent to that host. */
export class EgressDenied extends AppError {
  readonly denial: EgressDenial;
  constructor(denial: EgressDenial) {
    super('EGRESS_DENIED', `The call to ${formatDestination(denial)} was refused: ${denial.reason}.`, { host: denial.host, port: denial.port, rule: denial.rule });
    this.name = 'EgressDenied';
    this.denial = denial;
  }
}

export const isEgressDenied = (e: unknown): e is EgressDenied => e instanceof EgressDenied;

/** The EgressDenied anywhere in an error's cause chain (SDKs wrap what the fetch threw). */
export function egressDeniedIn(e: unknown): EgressDenied | null {
  for (let c: unknown = e, depth = 0; c && depth < 8; depth++) {
    if (c instanceof EgressDenied) return c;
    c = (c as { cause?: unknown }).cause;
  }
  return null;
}

export type FetchLike = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * What one request may also reach besides the list: the host an owner is registering right now,
 * or the download address a configured provider answered with. The address rule still applies.
 */
export type EgressScope = { alsoAllow?: readonly EgressDestination[] };

const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: never sent on to another origin by a redirect. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export class EgressGate {
  private readonly agents: Agents;
  private readonly resolve: Resolve;
  private readonly maxRedirects: number;

  constructor(
    private readonly deps: { prisma: PrismaClient; log: Logger },
    readonly options: EgressGateOptions,
  ) {
    this.agents = createAgents();
    this.resolve =
      options.resolve ??
      (async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })));
    this.maxRedirects = options.maxRedirects ?? 10;
  }

  /** A fetch for one workspace (null: the deployment's own calls), for SDKs that take one. */
  fetchFor(workspaceId: string | null, scope: EgressScope = {}): FetchLike {
    return (url, init) => this.fetch(workspaceId, url, init, scope);
  }

  /** Whether a request to `url` would be allowed now (without resolving the name): for a registration's early refusal. */
  async check(workspaceId: string | null, url: string | URL, scope: EgressScope = {}): Promise<EgressDecision> {
    const u = typeof url === 'string' ? new URL(url) : url;
    return this.decide(workspaceId, destinationOf(u), scope);
  }

  async fetch(workspaceId: string | null, url: string | URL | Request, init: RequestInit = {}, scope: EgressScope = {}): Promise<Response> {
    const first = new Request(url, init);
    const mode = init.redirect ?? (url instanceof Request ? url.redirect : 'follow');
    let current = new URL(first.url);
    let method = first.method;
    const headers = new Headers(first.headers);
    let body: Buffer | null = first.body ? Buffer.from(await first.arrayBuffer()) : null;
    const signal = init.signal ?? (url instanceof Request ? url.signal : null);
    for (let hop = 0; ; hop++) {
      const dest = destinationOf(current);
      const decision = await this.decide(workspaceId, dest, scope);
      if (!decision.allowed) {
        throw this.denied(workspaceId, dest ?? { host: current.hostname, port: 0 }, hop > 0 ? 'redirect-not-allowed' : decision.rule, hop > 0 ? `the server redirected to it, and ${decision.reason}` : decision.reason);
      }
      // Operator-configured destinations are the operator's choice, internal or not.
      const addresses = await this.addresses(workspaceId, dest!, decision.rule === 'deployment');
      const res = await exchange(this.agents, { url: current, method, headers, body, signal, addresses });
      if (!REDIRECT.has(res.status) || mode === 'manual') return res;
      const location = res.headers.get('location');
      if (!location) return res;
      await res.body?.cancel().catch(() => undefined);
      if (mode === 'error') throw new TypeError('fetch failed', { cause: new Error(`redirected to ${location}`) });
      if (hop >= this.maxRedirects) throw new TypeError('fetch failed', { cause: new Error('too many redirects') });
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new TypeError('fetch failed', { cause: new Error('invalid redirect location') });
      }
      if (next.origin !== current.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
      // As fetch does: 303 (and 301/302 of a POST) continue as a GET without the body.
      if (res.status === 303 ? method !== 'HEAD' : (res.status === 301 || res.status === 302) && method === 'POST') {
        method = 'GET';
        body = null;
        for (const h of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(h);
      }
      current = next;
    }
  }

  /** Closes pooled sockets. */
  close(): void {
    this.agents.close();
  }

  private async decide(workspaceId: string | null, dest: EgressDestination | null, scope: EgressScope): Promise<EgressDecision> {
    // Named by the caller for this request: allowed like a listed host (the address rule applies);
    // only the operator's configured destinations may be internal.
    if (dest && scope.alsoAllow?.some((d) => d.host === dest.host && d.port === dest.port)) return { allowed: true, rule: 'listed' };
    if (workspaceId === null) return decideDestination(dest, { workspace: [], deployment: this.options.deployment ?? [] }, 'deployment');
    const listed = dest ? await allowedDestinations(this.deps.prisma, workspaceId) : [];
    return decideDestination(dest, { workspace: listed, deployment: [] }, 'workspace');
  }

  /** The addresses to connect to: every one the name resolves to that the address rule allows. */
  private async addresses(workspaceId: string | null, dest: EgressDestination, operatorChosen: boolean): Promise<CheckedAddress[]> {
    const allowPrivate = this.options.allowPrivate || operatorChosen;
    const literal = isIP(dest.host);
    if (literal) {
      const d = decideAddress(dest, dest.host, allowPrivate);
      if (d && !d.allowed) throw this.denied(workspaceId, dest, d.rule, d.reason);
      return [];
    }
    let resolved: CheckedAddress[];
    try {
      resolved = await this.resolve(dest.host);
    } catch (e) {
      throw new TypeError('fetch failed', { cause: e });
    }
    if (!resolved.length) throw new TypeError('fetch failed', { cause: new Error(`ENOTFOUND ${dest.host}`) });
    const ok = resolved.filter((a) => !decideAddress(dest, a.address, allowPrivate));
    if (!ok.length) {
      const d = decideAddress(dest, resolved[0]!.address, allowPrivate)!;
      if (!d.allowed) throw this.denied(workspaceId, dest, d.rule, d.reason);
    }
    return ok;
  }

  private denied(workspaceId: string | null, dest: EgressDestination, rule: EgressDenial['rule'], reason: string): EgressDenied {
    const e = new EgressDenied({ workspaceId, host: dest.host, port: dest.port, rule, reason });
    this.deps.log.warn('outbound call refused by the egress gate', { workspaceId, host: dest.host, port: dest.port, rule });
    return e;
  }
}

/**
 * The one entry point: sends `init` to `url` for the workspace (null: the deployment) through the
 * gate. Throws EgressDenied when the destination, an address it resolves to, or a redirect hop is
 * not allowed.
 */
export function egressFetch(gate: EgressGate, workspaceId: string | null, url: string | URL | Request, init?: RequestInit, scope?: EgressScope): Promise<Response> {
  return gate.fetch(workspaceId, url, init, scope);
}

/**
 * A fetch for a download address a configured provider answered with (a generated file's URL): any
 * public host, never an internal address unless private egress is allowed.
 */
export function providerDownloadFetch(gate: EgressGate): FetchLike {
  return (url, init) => {
    const dest = destinationOf(new URL(url instanceof Request ? url.url : String(url)));
    return gate.fetch(null, url, init, dest ? { alsoAllow: [dest] } : {});
  };
}

/** The operator's configured provider hosts (deployment destinations). */
export function deploymentDestinations(urls: ReadonlyArray<string | undefined>): EgressDestination[] {
  const out: EgressDestination[] = [];
  for (const raw of urls) {
    if (!raw) continue;
    try {
      const d = destinationOf(new URL(raw));
      if (d && !out.some((o) => o.host === d.host && o.port === d.port)) out.push(d);
    } catch {
      // not a URL: nothing to allow
    }
  }
  return out;
}
