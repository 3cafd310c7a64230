// Recorded runs outside the database: a replay fixture is a task's ReplayInput (replay.ts) with the
// agents that acted in it, saved as one JSON file (`npm run replay -- --save <taskId>`). The
// evaluation suite replays every saved fixture (test/eval/replays.ts), and a policy to try is judged
// against fixtures as well as against the database (`npm run replay -- --policy <file>`).
//
// Invariants:
//  - A fixture replays exactly as its task did from the database: dates and big integers survive
//    the JSON round trip (tagged), so the rebuilt requests digest the same.
//  - Saving reads only; nothing in the database changes.
import type { PrismaClient } from '../db/client.ts';
import { judgePastCalls, type Finding, type PastCall, type PolicyFile } from '../domain/policy-replay.ts';
import { loadReplayInput, replayRecorded, type ReplayInput, type ReplayReport } from './replay.ts';

export const FIXTURE_FORMAT = 'atelier-replay/v1';

export type AgentAtTheTime = { id: string; name: string; version: number; scopes: string[] };

export type ReplayFixture = {
  format: typeof FIXTURE_FORMAT;
  savedAt: string;
  /** Why it was saved (the task's end, or the operator's words). */
  reason: string;
  workspaceId: string;
  /** Every version of the agents that acted in the task, with its ceiling then. */
  agents: AgentAtTheTime[];
  input: ReplayInput;
};

const tag = (_k: string, v: unknown) => (typeof v === 'bigint' ? { $bigint: v.toString() } : v);
function untag(_k: string, v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && typeof o.$date === 'string') return new Date(o.$date);
    if (keys.length === 1 && typeof o.$bigint === 'string') return BigInt(o.$bigint);
  }
  return v;
}
/** Dates are tagged before JSON.stringify turns them into strings (toJSON runs before a replacer). */
function tagDates(v: unknown): unknown {
  if (v instanceof Date) return { $date: v.toISOString() };
  if (Array.isArray(v)) return v.map(tagDates);
  if (v && typeof v === 'object' && !Buffer.isBuffer(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tagDates(x)]));
  return v;
}

export function serializeFixture(f: ReplayFixture): string {
  return `${JSON.stringify(tagDates(f), tag, 1)}\n`;
}

export function parseFixture(text: string): ReplayFixture {
  const f = JSON.parse(text, untag) as ReplayFixture;
  if (f?.format !== FIXTURE_FORMAT || !f.input?.steps) throw new Error(`not a replay fixture (expected format ${FIXTURE_FORMAT})`);
  return f;
}

type Attempt = { principal?: { agentId?: string; version?: number }; decision?: { allowed?: boolean; rule?: string; scope?: string | null }; params?: unknown };

/** The recorded tool calls of a task with the attempts journaled before their effects. */
export function pastCallsOf(input: ReplayInput, workspaceId: string, agents: readonly AgentAtTheTime[]): PastCall[] {
  const attempts = new Map<string, Attempt>();
  for (const e of input.events) {
    if (e.type !== 'TOOL_CALL_STARTED' && e.type !== 'TOOL_CALL_DENIED') continue;
    const p = (e.payload ?? {}) as Attempt & { callId?: string };
    if (p.callId && p.decision) attempts.set(p.callId, p);
  }
  const calls: PastCall[] = [];
  for (const s of input.steps) {
    for (const c of s.toolCalls) {
      const a = attempts.get(c.id);
      const agentId = a?.principal?.agentId ?? null;
      const version = a?.principal?.version ?? null;
      const agent = agents.find((x) => x.id === agentId && x.version === version) ?? agents.find((x) => x.id === agentId) ?? null;
      calls.push({
        taskId: input.taskId,
        turn: s.turnNumber,
        step: s.index,
        callId: c.id,
        tool: c.name,
        workspaceId,
        agent: { id: agentId, name: agent?.name ?? null, version },
        recordedCeiling: agent?.scopes ?? null,
        recorded: a?.decision ? { allowed: !!a.decision.allowed, rule: a.decision.rule ?? 'unknown', scope: a.decision.scope ?? null } : null,
        params: a?.params ?? null,
        status: c.status,
      });
    }
  }
  return calls;
}

/** The agents of a workspace at every recorded version (their ceilings then). */
async function agentsOf(prisma: PrismaClient, workspaceId: string): Promise<AgentAtTheTime[]> {
  const [principals, versions] = await Promise.all([
    prisma.agentPrincipal.findMany({ where: { workspaceId }, select: { id: true, name: true, version: true, scopes: true } }),
    prisma.agentPrincipalVersion.findMany({ where: { workspaceId }, select: { principalId: true, version: true, snapshot: true } }),
  ]);
  const out: AgentAtTheTime[] = principals.map((p) => ({ id: p.id, name: p.name, version: p.version, scopes: p.scopes }));
  for (const v of versions) {
    const snap = (v.snapshot ?? {}) as { name?: string; scopes?: string[] };
    const p = principals.find((x) => x.id === v.principalId);
    if (v.version !== p?.version && Array.isArray(snap.scopes)) out.push({ id: v.principalId, name: snap.name ?? p?.name ?? 'agent', version: v.version, scopes: snap.scopes });
  }
  return out;
}

/** A task's recorded run as a fixture. */
export async function fixtureOfTask(prisma: PrismaClient, taskId: string, reason: string): Promise<ReplayFixture> {
  const task = await prisma.task.findUnique({ where: { id: taskId }, select: { workspaceId: true, status: true } });
  if (!task) throw new Error(`no task ${taskId}`);
  return {
    format: FIXTURE_FORMAT,
    savedAt: new Date().toISOString(),
    reason: reason || `task ended ${task.status}`,
    workspaceId: task.workspaceId,
    agents: await agentsOf(prisma, task.workspaceId),
    input: await loadReplayInput(prisma, taskId),
  };
}

export function replayFixture(f: ReplayFixture): ReplayReport {
  return replayRecorded(f.input);
}

/** The recorded tool calls of a workspace's tasks (all workspaces without one), oldest first. */
export async function pastCallsInDatabase(prisma: PrismaClient, opts: { workspaceId?: string; since?: Date }): Promise<PastCall[]> {
  const tasks = await prisma.task.findMany({
    where: { ...(opts.workspaceId ? { workspaceId: opts.workspaceId } : {}), ...(opts.since ? { updatedAt: { gte: opts.since } } : {}) },
    select: { id: true, workspaceId: true },
    orderBy: { createdAt: 'asc' },
  });
  const agents = new Map<string, AgentAtTheTime[]>();
  const calls: PastCall[] = [];
  for (const t of tasks) {
    if (!agents.has(t.workspaceId)) agents.set(t.workspaceId, await agentsOf(prisma, t.workspaceId));
    calls.push(...pastCallsOf(await loadReplayInput(prisma, t.id), t.workspaceId, agents.get(t.workspaceId)!));
  }
  return calls;
}

export function judgeFixture(f: ReplayFixture, policy: PolicyFile): Finding[] {
  return judgePastCalls(pastCallsOf(f.input, f.workspaceId, f.agents), policy);
}

/** One line per finding, for people. */
export function describeFinding(x: Finding): string {
  const then = x.recorded ? (x.recorded.allowed ? `allowed then (${x.recorded.rule})` : `denied then (${x.recorded.rule})`) : 'recorded before attempts were journaled';
  const who = x.agent.name ? `${x.agent.name}${x.agent.version !== null ? ` v${x.agent.version}` : ''}` : 'the agent';
  return `${x.now === 'deny' ? 'would DENY' : 'would ESCALATE'}  task ${x.taskId} turn ${x.turn} step ${x.step}: ${who} called ${x.tool} — ${then}; now: ${x.decision && !x.decision.allowed ? `${x.decision.rule}: ${x.decision.reason}` : x.why}`;
}
