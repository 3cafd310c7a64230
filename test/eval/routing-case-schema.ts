// The routing case format (zod): the tasks a case starts from, the message, and the expected route.
import { z } from 'zod';

export const OUTCOMES = ['ANSWER', 'LIGHTWEIGHT_TASK', 'EXISTING_TASK', 'NEW_TASK', 'CLARIFY'] as const;
export const TASK_STATUSES = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export const TASK_KINDS = ['PERSISTENT', 'LIGHTWEIGHT'] as const;
/** Tags that name a language of the message text (a mixed-language message carries several). */
export const LANGUAGE_TAGS = ['en', 'de', 'zh', 'ja', 'fr', 'es', 'it', 'pt', 'nl', 'ko'] as const;

const kebab = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case');
const oneLine = z.string().trim().min(1).regex(/^[^\n\r]*$/, 'must be a single line');

export const taskSchema = z.strictObject({
  key: kebab,
  title: oneLine,
  goal: oneLine,
  summary: z.string().regex(/^[^\n\r]*$/, 'must be a single line'),
  status: z.enum(TASK_STATUSES),
  kind: z.enum(TASK_KINDS),
  archived: z.boolean(),
  language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/, 'must be a language code like "en" or "zh-Hant"'),
  lastActivityHoursAgo: z.number().nonnegative(),
  objects: z.array(kebab),
  // Optional facts about the task's work, as the router's index carries them. Dates are hours
  // before the evaluation's clock (a Sunday, 2026-11-29 12:00 UTC), like lastActivityHoursAgo.
  /** When the task was created (defaults to lastActivityHoursAgo). */
  createdHoursAgo: z.number().nonnegative().optional(),
  /** When a finished task ended (COMPLETED, FAILED, CANCELLED only; defaults to lastActivityHoursAgo). */
  endedHoursAgo: z.number().nonnegative().optional(),
  /** When an archived task was archived (archived only; defaults to lastActivityHoursAgo). */
  archivedHoursAgo: z.number().nonnegative().optional(),
  /** What the task produced, by name ("poster 2 — cinnamon bun"). */
  results: z.array(oneLine).optional(),
  /** Names of the workspace objects (keys of `objects`) as people see them ("Kestrel lager label v3"). */
  objectNames: z.record(kebab, oneLine).optional(),
});

export const cardActionSchema = z.strictObject({
  cardTaskKey: kebab,
  choice: z.enum(['continue', 'create']),
});

export const messageSchema = z.strictObject({
  text: z.string().trim().min(1),
  taskKey: kebab.nullable(),
  objectKey: kebab.nullable(),
  cardAction: cardActionSchema.nullable(),
});

/** What a route asks besides delivery (server/routing/types.ts RouteIntent). */
export const INTENTS = ['CANCEL', 'PAUSE', 'RESUME', 'STATUS', 'REMEMBER'] as const;

export const expectedSchema = z.strictObject({
  outcome: z.enum(OUTCOMES),
  taskKey: kebab.optional(),
  /**
   * The route's intent. For EXISTING_TASK, absent means plain delivery (a route with a signal or
   * STATUS intent is then wrong); for ANSWER, absent means any reply will do.
   */
  intent: z.enum(INTENTS).optional(),
  /** For NEW_TASK seeded from an earlier task (next year's edition): that task. */
  seedTaskKey: kebab.optional(),
});

export const routingCaseSchema = z.strictObject({
  id: kebab,
  description: oneLine,
  tags: z.array(kebab).min(1),
  tasks: z.array(taskSchema).max(30),
  message: messageSchema,
  expected: expectedSchema,
});

export type RoutingTask = z.infer<typeof taskSchema>;
export type RoutingCase = z.infer<typeof routingCaseSchema>;
export type Outcome = (typeof OUTCOMES)[number];

export interface ValidationResult {
  cases: RoutingCase[];
  problems: string[];
}
