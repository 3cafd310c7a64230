import type { Card, RouteDecision } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { TaskRef } from './task.ts';

export const RouteOutcomeEnum = builder.enumType('RouteOutcome', {
  values: ['ANSWER', 'LIGHTWEIGHT_TASK', 'EXISTING_TASK', 'NEW_TASK', 'CLARIFY'] as const,
});
export const RouteMethodEnum = builder.enumType('RouteMethod', {
  description: 'DETERMINISTIC: by code (task panel, card choice, object). MODEL: the router model. RETRIEVAL: the offline router.',
  values: ['DETERMINISTIC', 'MODEL', 'RETRIEVAL'] as const,
});

type Cand = { taskId: string; title: string; score: number };
const RouteCandidateRef = builder.objectRef<Cand>('RouteCandidate');
builder.objectType(RouteCandidateRef, {
  fields: (t) => ({
    title: t.exposeString('title'),
    score: t.exposeFloat('score'),
    task: t.field({ type: TaskRef, nullable: true, resolve: (c, _a, ctx) => ctx.loaders.task.load(c.taskId) }),
  }),
});

export const RouteDecisionRef = builder.objectRef<RouteDecision>('RouteDecision');
builder.objectType(RouteDecisionRef, {
  description: 'Where a message went and why. A re-route keeps the old decision (superseded) on record.',
  fields: (t) => ({
    outcome: t.field({ type: RouteOutcomeEnum, resolve: (d) => d.outcome }),
    method: t.field({ type: RouteMethodEnum, resolve: (d) => d.method }),
    reason: t.exposeString('reason'),
    indexSize: t.exposeInt('indexSize', { description: 'How many task-index entries the router saw (bounded).' }),
    task: t.field({ type: TaskRef, nullable: true, resolve: (d, _a, ctx) => (d.taskId ? ctx.loaders.task.load(d.taskId) : null) }),
    candidates: t.field({ type: [RouteCandidateRef], resolve: (d) => d.candidates as Cand[] }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    superseded: t.boolean({ resolve: (d) => d.supersededAt !== null }),
  }),
});

type Opt = { id: string; label: string; taskId: string | null; action: string };
const CardOptionRef = builder.objectRef<Opt>('CardOption');
builder.objectType(CardOptionRef, {
  fields: (t) => ({
    id: t.exposeString('id'),
    label: t.exposeString('label'),
    action: t.exposeString('action'),
    task: t.field({ type: TaskRef, nullable: true, resolve: (o, _a, ctx) => (o.taskId ? ctx.loaders.task.load(o.taskId) : null) }),
  }),
});

export const CardRef = builder.objectRef<Card>('Card');
builder.objectType(CardRef, {
  description: 'A structured question in the main thread; answer it with sendMessage(cardAction).',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    prompt: t.exposeString('prompt'),
    status: t.exposeString('status'),
    choice: t.exposeString('choice', { nullable: true }),
    options: t.field({ type: [CardOptionRef], resolve: (c) => c.options as Opt[] }),
  }),
});
