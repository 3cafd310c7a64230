// Routing by code: an explicit task, a card choice, or an object tied to exactly one task. No model.
import type { RouteDecision, RouteIntent } from './types.ts';

export type CardChoice = { cardId: string; optionId: string };
/** `intent`: a card that asks about a command (stop which task? stop it anyway?) carries it on to the pick. */
export type ResolvedCardOption = { action: 'continue' | 'create'; taskId?: string | null; label: string; intent?: RouteIntent };

export function routeDeterministic(input: {
  taskId?: string | null;
  card?: ResolvedCardOption | null;
  objectId?: string | null;
  /** Tasks referencing objectId (not archived). */
  objectOwners?: { taskId: string; title: string }[];
}): RouteDecision | null {
  const base = { method: 'DETERMINISTIC' as const, candidates: [] };
  if (input.taskId) return { ...base, outcome: 'EXISTING_TASK', taskId: input.taskId, reason: 'sent from the task' };
  if (input.card) {
    if (input.card.action === 'create') return { ...base, outcome: 'NEW_TASK', taskId: null, reason: `card choice: ${input.card.label}` };
    if (input.card.taskId) {
      return { ...base, outcome: 'EXISTING_TASK', taskId: input.card.taskId, reason: `card choice: ${input.card.label}`, ...(input.card.intent ? { intent: input.card.intent } : {}) };
    }
  }
  if (input.objectId && input.objectOwners) {
    if (input.objectOwners.length === 1) {
      return { ...base, outcome: 'EXISTING_TASK', taskId: input.objectOwners[0]!.taskId, reason: 'about an object of this task' };
    }
    if (input.objectOwners.length > 1) {
      return {
        ...base,
        outcome: 'CLARIFY',
        taskId: null,
        candidates: input.objectOwners.slice(0, 5).map((o) => ({ ...o, score: 1 })),
        reason: `the object belongs to ${input.objectOwners.length} tasks`,
      };
    }
  }
  return null;
}
