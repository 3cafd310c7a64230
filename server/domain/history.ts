// What a task's history is made of, as the pure context rules (assembly, compaction, replay) see it:
// the model's decisions, the steps with their tool calls, inbox items and change notices.

/** A model decision: its text and the tool calls it asked for. */
export type Decision = { content: string; toolCalls: { id: string; name: string; args: unknown }[] };

export type HistoryStep = {
  turnId: string;
  turnNumber: number;
  index: number;
  decision: unknown;
  toolCalls: { id?: string; modelCallId: string; name: string; status: string; result: unknown; error: string | null }[];
};

export type HistoryInbox = {
  id: string;
  kind: string;
  signal: string | null;
  text: string | null;
  createdAt: Date;
  consumedTurnId: string | null;
  consumedStep: number | null;
};

/**
 * A change notice (shared workspace): someone else changed an object the task has seen. Like inbox
 * items, a notice sits before the step that consumed it, and fresh ones go at the end, once.
 */
export type HistoryNotice = {
  id: string;
  objectId: string;
  objectName: string;
  fromVersion: number;
  toVersion: number;
  summary: string;
  authorKind: string;
  consumedTurnId: string | null;
  consumedStep: number | null;
};
