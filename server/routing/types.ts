// The router's vocabulary. The router sees only a bounded, compact task index — never histories.

export type RouteOutcome = 'ANSWER' | 'LIGHTWEIGHT_TASK' | 'EXISTING_TASK' | 'NEW_TASK' | 'CLARIFY';
export type RouteMethod = 'DETERMINISTIC' | 'MODEL' | 'RETRIEVAL';

export type TaskIndexEntry = {
  taskId: string;
  title: string;
  /** Truncated: the index stays small whatever the task's size. */
  goal: string;
  summary: string;
  status: string;
  kind: 'PERSISTENT' | 'LIGHTWEIGHT';
  language: string | null;
  lastActivityAt: Date;
  objects: string[];
  /** Database retrieval score (full-text rank + trigram similarity), 0 when found by recency only. */
  retrieval: number;
  /** Cosine similarity of embeddings, when an embedding model is configured. */
  semantic?: number;
};

export type Candidate = { taskId: string; title: string; score: number };

export type RouteDecision = {
  outcome: RouteOutcome;
  method: RouteMethod;
  taskId: string | null;
  candidates: Candidate[];
  reason: string;
  /** For ANSWER: the reply text; for NEW/LIGHTWEIGHT: a title for the new task. */
  reply?: string;
  title?: string;
};

export const INDEX_RECENT = 20;
export const INDEX_RETRIEVED = 10;
export const INDEX_FIELD_CHARS = 200;
/** Upper bound of the index: recent + retrieved + semantic candidates. */
export const INDEX_MAX = INDEX_RECENT + INDEX_RETRIEVED + 5;
