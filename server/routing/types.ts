// The router's vocabulary. The router sees only a bounded, compact task index — never histories.

export type RouteOutcome = 'ANSWER' | 'LIGHTWEIGHT_TASK' | 'EXISTING_TASK' | 'NEW_TASK' | 'CLARIFY';
export type RouteMethod = 'DETERMINISTIC' | 'MODEL' | 'RETRIEVAL';

/**
 * What a message asks of its route besides delivery. With EXISTING_TASK: CANCEL, PAUSE and RESUME
 * are signals for the named task ("stop the PPT"); STATUS is a question about it, answered from its
 * state without waking it ("where's the video at"). With ANSWER: REMEMBER is a lasting fact for
 * the workspace ("our brand colour is teal"), STATUS a question about the work as a whole. No
 * intent: the message is delivered (or answered) as it is.
 */
export type RouteIntent = 'CANCEL' | 'PAUSE' | 'RESUME' | 'STATUS' | 'REMEMBER';
export const ROUTE_INTENTS: readonly RouteIntent[] = ['CANCEL', 'PAUSE', 'RESUME', 'STATUS', 'REMEMBER'];

export type TaskIndexEntry = {
  taskId: string;
  title: string;
  /** The task's brief (its goal), truncated: the index stays small whatever the task's size. */
  goal: string;
  summary: string;
  status: string;
  kind: 'PERSISTENT' | 'LIGHTWEIGHT';
  language: string | null;
  lastActivityAt: Date;
  /** When the task was created (its first day of work), when known. */
  createdAt?: Date;
  /** When the task reached its terminal state (finished tasks only). */
  endedAt?: Date | null;
  /** Archived (put away by a person): shown with its state, never written to or offered as a choice. */
  archived?: boolean;
  /** Names of the workspace objects the task refers to (bounded, truncated). */
  objects: string[];
  /** What the task produced: names of its results (objects it wrote, finished generations), bounded. */
  results?: string[];
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
  /** What the message asks of the route besides delivery (see RouteIntent); absent: plain delivery. */
  intent?: RouteIntent;
  /**
   * For NEW_TASK: the finished (or archived) task the new one is seeded from — next year's edition
   * of a report, the same poster again for a new date. The new task starts with that task's brief
   * and results as context; the old task is left as it is.
   */
  seedTaskId?: string | null;
  /** For ANSWER: the reply text; for NEW/LIGHTWEIGHT: a title for the new task. */
  reply?: string;
  title?: string;
};

export const INDEX_RECENT = 20;
export const INDEX_RETRIEVED = 10;
/** Recently archived tasks in the index, with their state (so that "stop it" or "next year's" can name them). */
export const INDEX_ARCHIVED = 5;
/** How long an archived task stays in the index. */
export const ARCHIVED_INDEX_DAYS = 30;
export const INDEX_FIELD_CHARS = 200;
/** Object and result names per entry, each cut to INDEX_NAME_CHARS. */
export const INDEX_NAMES = 5;
export const INDEX_NAME_CHARS = 60;
/** Upper bound of the index: recent + retrieved + archived + semantic candidates. */
export const INDEX_MAX = INDEX_RECENT + INDEX_RETRIEVED + INDEX_ARCHIVED + 5;
