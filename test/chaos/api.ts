// GraphQL over HTTP to a random live API process. A request that meets a dying process (connection
// refused or reset, a 5xx, a cut-off answer) is sent again, to any live API, with the same body —
// so a mutation keeps its idempotency key, and the product must answer the retry as the first.
import type { Cluster } from './cluster.ts';
import { pause, reached } from '../helpers/wait.ts';
import type { Rng } from './rng.ts';

export type GqlError = { message: string; extensions?: { code?: string; [k: string]: unknown } };
export type GqlAnswer<T> = { data?: T | null; errors?: GqlError[] };

export const ApiStats = () => ({
  requests: 0,
  /** Attempts that met a dead or dying API and were sent again. */
  networkRetries: 0,
  rateLimited: 0,
  /** INTERNAL errors (retried): each one is reported. */
  internal: [] as string[],
  /** IDEMPOTENCY_KEY_REUSED on a retry of the very same request: a product bug. */
  keyReused: [] as string[],
});
export type ApiStatsT = ReturnType<typeof ApiStats>;

export const toGid = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
export const fromGid = (gid: string) => Buffer.from(gid, 'base64').toString('utf8').split(':').slice(1).join(':');

export class Api {
  constructor(
    private readonly cluster: Cluster,
    private readonly rng: Rng,
    readonly stats: ApiStatsT,
  ) {}

  /** Sends until an answer comes back (or the deadline passes); GraphQL errors are returned, not thrown. */
  async call<T>(label: string, query: string, variables: Record<string, unknown> = {}, deadlineMs = 90_000): Promise<GqlAnswer<T>> {
    const end = Date.now() + deadlineMs;
    const body = JSON.stringify({ query, variables });
    let lastProblem = '';
    for (let attempt = 0; ; attempt++) {
      if (Date.now() > end) throw new Error(`${label}: no answer within ${deadlineMs} ms (last: ${lastProblem})`);
      const urls = this.cluster.liveApiUrls();
      if (urls.length === 0) {
        await reached(() => this.cluster.liveApiUrls().length > 0, { timeoutMs: Math.max(0, end - Date.now()), intervalMs: 100 });
        continue;
      }
      const url = this.rng.pick(urls);
      this.stats.requests++;
      let res: Response;
      let text: string;
      try {
        res = await fetch(`${url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', authorization: `Bearer ${this.cluster.ownerToken}` },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        text = await res.text();
      } catch (e) {
        lastProblem = String((e as Error).cause ?? (e as Error).message);
        this.stats.networkRetries++;
        // A client's backoff before it sends again (the process behind the URL may be gone).
        await pause(Math.min(1000, 50 * 2 ** Math.min(attempt, 4)));
        continue;
      }
      if (res.status === 429) {
        this.stats.rateLimited++;
        // As a client must: again after the Retry-After the server asked for.
        await pause(Number(res.headers.get('retry-after') ?? '1') * 1000);
        continue;
      }
      let parsed: GqlAnswer<T>;
      try {
        parsed = JSON.parse(text) as GqlAnswer<T>;
      } catch {
        lastProblem = `HTTP ${res.status}: ${text.slice(0, 200)}`;
        this.stats.networkRetries++;
        // A client's pause before it sends again (an answer cut off by a dying process).
        await pause(100);
        continue;
      }
      const codes = (parsed.errors ?? []).map((e) => e.extensions?.code);
      if (codes.includes('INTERNAL') || res.status >= 500) {
        // A process dying under the request can cut a database call short; anything else is a bug.
        this.stats.internal.push(`${label}: ${JSON.stringify(parsed.errors).slice(0, 300)}`);
        lastProblem = `INTERNAL ${JSON.stringify(parsed.errors).slice(0, 200)}`;
        // A client's pause before it sends again.
        await pause(200);
        continue;
      }
      if (codes.includes('IDEMPOTENCY_KEY_REUSED')) this.stats.keyReused.push(`${label} (attempt ${attempt + 1}): ${JSON.stringify(variables).slice(0, 300)}`);
      return parsed;
    }
  }

  async ok<T>(label: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const r = await this.call<T>(label, query, variables);
    if (r.errors?.length || !r.data) throw new Error(`${label}: ${JSON.stringify(r.errors)}`);
    return r.data;
  }
}

export const DOCS = {
  viewer: `query { viewer { workspaces { id } } }`,
  send: `mutation ChaosSend($input: SendMessageInput!) { sendMessage(input: $input) {
    duplicate route { outcome } task { id } card { id options { id action label task { id } } } } }`,
  answerCard: `mutation ChaosAnswerCard($input: AnswerCardInput!) { answerCard(input: $input) { duplicate task { id } } }`,
  createTask: `mutation ChaosCreate($input: CreateTaskInput!) { createTask(input: $input) { task { id status } } }`,
  signal: `mutation ChaosSignal($input: SignalTaskInput!) { signalTask(input: $input) { task { id status } } }`,
  resolve: `mutation ChaosResolve($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id status } } }`,
  pending: `query ChaosPending($ws: ID!) { workspace(id: $ws) { approvals(statuses: [PENDING], first: 100) {
    edges { node { id kind createdAt options { id } task { id status } } } } } }`,
};
