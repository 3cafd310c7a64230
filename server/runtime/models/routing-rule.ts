// Which model answers a call, by an explicit rule, pure. The small ("router") model takes
// routine work — routing, extraction, summaries, and worker steps that just carry on with a plan
// that is going well; the larger ("worker") model takes uncertainty and high stakes: planning, a
// paid action waiting, a tool that failed or whose outcome is unknown, a user correction. When in
// doubt the rule picks the larger model: a wrong cheap answer costs more than the price difference.
import type { ModelRole } from './types.ts';

export type CallPurpose = 'worker-step' | 'summary' | 'routing' | 'extraction';

export type RoutingInput = {
  purpose: CallPurpose;
  /** No checklist yet, or the checklist has no open step (the next step plans). */
  planning?: boolean;
  /** An approval is pending or a paid generation step is open. */
  paidActionPending?: boolean;
  /** The previous step had a FAILED or OUTCOME_UNKNOWN call. */
  lastCallFailed?: boolean;
  /** A user REVISE arrives with this step. */
  userRevise?: boolean;
  /** A user message arrives with this step (new words to interpret). */
  userMessage?: boolean;
};

export type RoutingDecision = { role: ModelRole; reason: string };

export function routeModelCall(i: RoutingInput): RoutingDecision {
  if (i.purpose !== 'worker-step') return { role: 'router', reason: `routine: ${i.purpose}` };
  if (i.userRevise) return { role: 'worker', reason: 'a user correction (REVISE)' };
  if (i.lastCallFailed) return { role: 'worker', reason: 'a previous tool call failed or its outcome is unknown' };
  if (i.paidActionPending) return { role: 'worker', reason: 'a paid action is pending' };
  if (i.planning) return { role: 'worker', reason: 'planning' };
  if (i.userMessage) return { role: 'worker', reason: 'a new user message' };
  return { role: 'router', reason: 'routine step of a plan in progress' };
}
