// Escalation: when the agent is stuck on something it may not or cannot settle itself, a person is
// asked with a card instead of the model only being told. Two triggers (domain/agent-policy.ts):
//  - the same tool refused by the policy DENIALS_BEFORE_ESCALATION times in one task (the model
//    tried to work around the refusal);
//  - an OUTCOME_UNKNOWN of a tool marked as needing a person (ToolDef.needsPerson).
// Invariants:
//  - The card is written in the transaction that records the refusal or the unknown outcome, so a
//    crash cannot separate them; its request key makes it once per (task, tool) for refusals and
//    once per call for unknown outcomes — a retried write, or a third refusal, asks no second time.
//  - The card carries no tool call id: the person's answer reaches the agent through the task's
//    inbox like a message (services/approvals/resolve-approval.ts), and the task waits meanwhile.
import type { Emit } from '../channel/unit-of-work.ts';
import type { Tx } from '../db/client.ts';
import type { EscalationKind, EscalationTrigger } from '../domain/agent-policy.ts';
import { textsFor } from '../domain/replies/texts.ts';
import { requestApproval } from '../store/approvals/request-approval.ts';
import { readTaskBrief } from '../store/journal/tasks.ts';
import type { Claim } from './lease.ts';
import { runOf } from './policy.ts';

/** The approval action of an escalation card. */
export const ESCALATION_ACTION = 'AGENT_ESCALATION';


export type Escalation = {
  kind: EscalationKind;
  trigger: EscalationTrigger;
  tool: string;
  callId: string;
  /** What happened, in a sentence (the refusal's reason, or why the outcome is unknown). */
  what: string;
  /** The right the tool needs, for a refusal. */
  scope?: string | null;
  rule?: string;
};

/** Raises the card (once per key). Returns whether a person's answer is now awaited. */
export async function raiseEscalation(tx: Tx, emit: Emit, claim: Claim, e: Escalation): Promise<boolean> {
  // In the task's language, like every card a person reads.
  const t = textsFor((await readTaskBrief(tx, claim.taskId)).language).escalation;
  const title = e.trigger === 'repeated-denial' ? t.repeatedDenial(e.tool, e.scope ?? null) : t.unknownOutcome(e.tool);
  const { approval } = await requestApproval(tx, emit, {
    workspaceId: claim.workspaceId,
    taskId: claim.taskId,
    kind: 'CHECKPOINT',
    requestKey: e.trigger === 'repeated-denial' ? `escalation:${claim.taskId}:${e.tool}` : `escalation:${e.callId}`,
    title: `${title.slice(0, 400)} ${t[e.kind]}`,
    reasons: [{ code: 'CHECKPOINT', message: e.what.slice(0, 500) }],
    quoteCents: null,
    action: {
      type: ESCALATION_ACTION,
      // A checkpoint that takes words: the person says how the agent should go on (the web card
      // shows a text field for ADJUST).
      kind: 'ADJUST',
      escalation: e.kind,
      trigger: e.trigger,
      tool: e.tool,
      callRef: e.callId,
      scope: e.scope ?? null,
      rule: e.rule ?? null,
      principal: { agentId: claim.principal.id, version: claim.principal.version },
      run: runOf(claim),
    },
    requestedBy: { kind: 'AGENT', id: claim.principal.id, version: claim.principal.version, run: runOf(claim) },
  });
  return approval.status === 'PENDING';
}
