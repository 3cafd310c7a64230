// delegate_to_agent: the agent hands one step to a remote A2A agent its workspace registered
// (store/a2a/remote-agents.ts), and waits for the outcome.
//
//  - Before anything is sent, the remote card is fetched and its signature verified against the
//    key the owner registered (remote-card.ts); an unsigned or wrongly signed card is refused with
//    a sentence the model and the people following the task can read.
//  - The call carries a credential for this step only: a run credential minted with the remote
//    agent's URL as its audience, the `agents:delegate` scope and a short life (the run's own
//    credential when no principal is known) — never a secret of the server.
//  - Everything goes out through the egress gate (the agent's host is on the workspace's list from
//    its registration).
//  - The remote task's id is recorded on the task's log (TOOL_TASK_STARTED) before anything waits
//    on it, as the MCP tool bus does: a takeover after a crash follows that task instead of sending
//    the message again (the tool is AT_MOST_ONCE and `resumable` says so). The message id is the
//    call's journal key, so a remote agent that deduplicates by it ignores a resend.
//  - The wait streams the remote task (or polls it, for an agent without streaming) until it ends
//    or needs input, bounded by the call's signal (a lost lease, a pause, a cancel).
//  - Or, with `answer: "later"` (an agent that pushes notifications), nothing waits: the message
//    carries a push-notification config naming /a2a/callbacks/<delegation> and a fresh secret
//    (only its hash is stored), the call returns at once, and the remote agent's final update
//    reaches the task as a message when it comes (http/a2a/callback.ts) — no worker is held.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Role, SendMessageRequest, TaskState, type AgentCard, type Task as A2aTask } from '@a2a-js/sdk';
import { A2A_STATE_WORD, a2aStatusText } from './states.ts';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { createDelegation, findDelegationOfCall, recordRemoteTask } from '../../store/a2a/delegations.ts';
import { findRemoteAgent } from '../../store/a2a/remote-agents.ts';
import { openOne } from '../../store/sealing/open.ts';
import type { EgressGate, FetchLike } from '../egress/gate.ts';
import { mintRunCredential } from '../run-credentials.ts';
import { defineTool, type ToolContext, type ToolDef } from '../tools/types.ts';
import { CardRefused, fetchVerifiedCard } from './remote-card.ts';

export const DELEGATE_TOOL = 'delegate_to_agent';
/** The life of a delegation's credential: one step, not the run. */
const STEP_CREDENTIAL_TTL_MS = 5 * 60_000;
const POLL_MS = 500;

const FINAL = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);
const stops = (s: TaskState | undefined) => s !== undefined && (FINAL.has(s) || s === TaskState.TASK_STATE_INPUT_REQUIRED || s === TaskState.TASK_STATE_AUTH_REQUIRED);

const textOf = (t: A2aTask): string => a2aStatusText(t.status).slice(0, 4000);

/** The remote task id recorded for this call (TOOL_TASK_STARTED with its journal key), or null. */
async function recordedRemoteTask(ctx: ToolContext): Promise<string | null> {
  const rows = await ctx.uow.prisma.taskEvent.findMany({ where: { taskId: ctx.taskId, type: 'TOOL_TASK_STARTED' }, orderBy: { seq: 'desc' }, select: { payload: true } });
  for (const row of rows) {
    const p = (await openOne(ctx.uow.prisma, row.payload)).value as { callId?: unknown; tool?: unknown; mcpTask?: unknown } | null;
    if (p && p.callId === ctx.idempotencyKey && p.tool === DELEGATE_TOOL && typeof p.mcpTask === 'string') return p.mcpTask;
  }
  return null;
}

/** The bearer token of this step: a credential minted for the remote agent, else the run's own. */
async function stepToken(ctx: ToolContext, audience: string): Promise<string> {
  if (ctx.principal && ctx.generation !== undefined) {
    const c = await mintRunCredential(
      { prisma: ctx.uow.prisma as never },
      { principal: ctx.principal, scopes: ['agents:delegate'], audience, workspaceId: ctx.workspaceId, taskId: ctx.taskId, turnId: ctx.turnId, generation: ctx.generation, ttlMs: STEP_CREDENTIAL_TTL_MS },
    );
    return c.token;
  }
  if (ctx.credential?.token) return ctx.credential.token;
  throw new Error('This run has no credential to present to a remote agent; the delegation was not sent.');
}

/**
 * Waits until the remote task ends or needs input: streamed (resubscribe) when the agent streams,
 * read again between streams and polled otherwise — a stream that ends early (the agent's event
 * bus went away) or cannot start (the task just ended) falls back to reading the task.
 */
async function follow(client: Client, card: AgentCard, id: string, signal: AbortSignal): Promise<A2aTask> {
  for (;;) {
    const t = await client.getTask({ tenant: '', id }, { signal });
    if (stops(t.status?.state)) return t;
    if (card.capabilities?.streaming) {
      try {
        for await (const r of client.resubscribeTask({ tenant: '', id }, { signal })) {
          const p = r.payload;
          const state = p?.$case === 'task' ? p.value.status?.state : p?.$case === 'statusUpdate' ? p.value.status?.state : undefined;
          if (stops(state)) break;
        }
      } catch (e) {
        if (signal.aborted) throw e;
      }
      const again = await client.getTask({ tenant: '', id }, { signal });
      if (stops(again.status?.state)) return again;
    }
    await new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const timer = setTimeout(resolve, POLL_MS);
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
    });
  }
}

/** The message of a step, as sent to the remote agent (its id is the call's journal key). */
function messageOf(ctx: ToolContext, input: { message: string; skill?: string | undefined; continueTask?: string | undefined }) {
  return {
    messageId: ctx.idempotencyKey || randomUUID(),
    role: 'ROLE_USER',
    parts: [{ text: input.message }],
    ...(input.continueTask ? { taskId: input.continueTask } : {}),
    ...(input.skill ? { metadata: { skill: input.skill } } : {}),
  };
}

/**
 * Answer later: the message goes out with a push-notification config for this call's delegation,
 * and the call ends at once. A call run again (a takeover) finds its delegation: sent already → the
 * same answer, nothing sent; not yet sent → sent now, with the secret made again (the first one
 * never left this process).
 */
async function handOver(
  ctx: ToolContext,
  client: Client,
  card: AgentCard,
  agentName: string,
  input: { message: string; skill?: string | undefined; continueTask?: string | undefined },
  base: string | undefined,
) {
  if (!card.capabilities?.pushNotifications) throw new Error(`"${agentName}" does not send push notifications; wait for its answer instead (answer: "wait").`);
  if (!base) throw new Error('Answers by callback need the address remote agents reach this server at (ATELIER_PUBLIC_URL); wait for the answer instead (answer: "wait").');
  const later = (remoteTaskId: string) => ({
    agent: agentName,
    remoteTaskId,
    state: 'working',
    text: `Handed over to "${agentName}". Its answer will reach this task as a message when it is ready; go on with other work meanwhile.`,
    artifacts: [],
  });
  const known = await findDelegationOfCall(ctx.uow.prisma, ctx.workspaceId, ctx.idempotencyKey);
  if (known?.remoteTaskId) return later(known.remoteTaskId);
  const secret = randomBytes(32).toString('base64url');
  const row = known
    ? await ctx.uow.prisma.a2aDelegation.update({ where: { id: known.id }, data: { secretHash: callbackSecretHash(secret) } })
    : await createDelegation(ctx.uow.prisma, { workspaceId: ctx.workspaceId, taskId: ctx.taskId, callId: ctx.idempotencyKey, agentName, secretHash: callbackSecretHash(secret) });
  const sent = await client.sendMessage(
    SendMessageRequest.fromJSON({
      message: messageOf(ctx, input),
      configuration: { returnImmediately: true, taskPushNotificationConfig: { id: row.id, url: `${base.replace(/\/+$/, '')}${CALLBACK_PATH}${row.id}`, token: secret } },
    }),
    { signal: ctx.signal },
  );
  if (!('status' in sent)) throw new Error(`"${agentName}" answered at once instead of taking the step as a task; wait for its answer instead (answer: "wait").`);
  await transactWithEvents(ctx.uow, async (tx, emit) => {
    await recordRemoteTask(tx as never, ctx.workspaceId, row.id, sent.id);
    emit(ctx.taskId, { type: 'TOOL_TASK_STARTED', actor: { kind: 'AGENT' }, payload: { callId: ctx.idempotencyKey, tool: DELEGATE_TOOL, mcpTask: sent.id } });
  });
  return later(sent.id);
}

/** Where remote agents reach this deployment (ATELIER_PUBLIC_URL): needed for answers by callback. */
export type DelegationDeps = { egress?: EgressGate; callbackBase?: () => string | undefined };

export const CALLBACK_PATH = '/a2a/callbacks/';
export const callbackSecretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function delegationTools(deps: DelegationDeps): ToolDef[] {
  return [
    defineTool({
      name: DELEGATE_TOOL,
      // Shown when the task speaks of another agent (tool-phase.ts), or when its phase is unknown.
      domain: 'agents',
      description:
        'Hand one step to a remote agent the workspace registered (by its name): send it a message and wait for its answer. ' +
        'Its card is verified first; an agent whose card is unsigned or signed by another key is refused. ' +
        'Returns its state (completed, input-required with its question, failed), its words and its artifacts.',
      input: z.object({
        agent: z.string().min(1).max(40).describe('The registered name of the remote agent.'),
        message: z.string().min(1).max(20_000).describe('What to ask of it, in words.'),
        skill: z.string().min(1).max(100).optional().describe('The skill of its card the step is for, when the workspace limits its skills.'),
        continueTask: z.string().min(1).max(200).optional().describe('The remoteTaskId of an earlier delegation that came back input-required: this message answers it.'),
        answer: z
          .enum(['wait', 'later'])
          .default('wait')
          .describe('"wait" (default): wait for the answer. "later": do not wait — the answer reaches this task as a message when the remote agent sends it (for long steps; the agent must push notifications).'),
      }),
      output: z.object({
        agent: z.string(),
        remoteTaskId: z.string(),
        state: z.string(),
        text: z.string(),
        artifacts: z.array(z.object({ name: z.string(), url: z.string().nullable(), mediaType: z.string() })),
      }),
      safety: 'AT_MOST_ONCE',
      resumable: async (ctx) => (await recordedRemoteTask(ctx)) !== null || (await findDelegationOfCall(ctx.uow.prisma, ctx.workspaceId, ctx.idempotencyKey))?.remoteTaskId != null,
      async run(input, ctx) {
        if (!deps.egress) throw new Error('Outbound calls are not available in this process; the delegation was not sent.');
        const agent = await findRemoteAgent(ctx.uow.prisma, ctx.workspaceId, input.agent);
        if (!agent) throw new Error(`No remote agent named "${input.agent}" is registered in this workspace.`);
        if (agent.allowedSkills.length && (!input.skill || !agent.allowedSkills.includes(input.skill))) {
          throw new Error(`The workspace allows only these skills of "${agent.name}": ${agent.allowedSkills.join(', ')}; name one as skill.`);
        }
        const out: FetchLike = deps.egress.fetchFor(ctx.workspaceId);
        let card: AgentCard;
        try {
          card = await fetchVerifiedCard(agent, out);
        } catch (e) {
          if (e instanceof CardRefused) throw new Error(`${e.message}. Nothing was sent.`);
          throw e;
        }
        if (input.skill && !card.skills.some((s) => s.id === input.skill)) throw new Error(`"${agent.name}" offers no skill "${input.skill}".`);
        const token = await stepToken(ctx, agent.url);
        const authed: FetchLike = (url, init) => {
          const headers = new Headers(init?.headers);
          headers.set('authorization', `Bearer ${token}`);
          return out(url, { ...init, headers });
        };
        const client = await new ClientFactory(
          ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl: authed as typeof fetch })] }),
        ).createFromAgentCard(card);

        if (input.answer === 'later') return await handOver(ctx, client, card, agent.name, input, deps.callbackBase?.());

        let remoteId = await recordedRemoteTask(ctx);
        if (!remoteId) {
          const sent = await client.sendMessage(
            SendMessageRequest.fromJSON({
              message: messageOf(ctx, input),
              configuration: { returnImmediately: true },
            }),
            { signal: ctx.signal },
          );
          if (!('status' in sent)) {
            // The agent answered at once, without a task: nothing to follow.
            const text = sent.role === Role.ROLE_AGENT ? sent.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('\n') : '';
            return { agent: agent.name, remoteTaskId: '', state: 'completed', text: text.slice(0, 4000), artifacts: [] };
          }
          remoteId = sent.id;
          await transactWithEvents(ctx.uow, async (_tx, emit) => {
            emit(ctx.taskId, { type: 'TOOL_TASK_STARTED', actor: { kind: 'AGENT' }, payload: { callId: ctx.idempotencyKey, tool: DELEGATE_TOOL, mcpTask: remoteId } });
          });
        }
        const ended = await follow(client, card, remoteId, ctx.signal);
        const state = (ended.status ? A2A_STATE_WORD[ended.status.state] : undefined) ?? 'unknown';
        const text = textOf(ended);
        if (state === 'failed' || state === 'canceled' || state === 'rejected') throw new Error(`The remote agent "${agent.name}" ended the step ${state}${text ? `: ${text}` : ''}.`);
        return {
          agent: agent.name,
          remoteTaskId: remoteId,
          state,
          text,
          artifacts: ended.artifacts.flatMap((a) =>
            a.parts.map((p) => ({ name: a.name || p.filename || a.artifactId, url: p.content?.$case === 'url' ? p.content.value : null, mediaType: p.mediaType || '' })),
          ),
        };
      },
    }),
  ];
}
