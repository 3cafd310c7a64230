import { builder } from '../builder.ts';
import { ActorKindEnum } from '../enums/actor-kind.ts';
import { globalId } from '../ids.ts';
import { publicJson, publicText } from '../public-ids.ts';
import { ChangeNoticeRef, WorkspaceObjectRef } from '../refs.ts';

builder.objectType(ChangeNoticeRef, {
  description: "Someone else changed an object the task has seen. It reaches the task's next step once (consumedAt).",
  fields: (t) => ({
    id: t.id({ description: "The notice's global id.", resolve: (n) => globalId('ChangeNotice', n.id) }),
    object: t.field({ type: WorkspaceObjectRef, nullable: true, description: 'The object that changed.', resolve: (n, _a, ctx) => ctx.loaders.object.load(n.objectId) }),
    fromVersion: t.exposeInt('fromVersion', { description: 'The version the task had seen.' }),
    toVersion: t.exposeInt('toVersion', { description: 'The version it changed to.' }),
    summary: t.string({ description: 'What changed, in words.', resolve: (n) => publicText(n.summary) }),
    changes: t.field({ type: 'JSON', description: 'What changed, as data (see ObjectVersion.changes).', resolve: (n) => publicJson(n.changes) }),
    authorKind: t.field({ type: ActorKindEnum, description: 'Who changed it.', resolve: (n) => n.authorKind }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it changed.' }),
    consumedAt: t.expose('consumedAt', { type: 'DateTime', nullable: true, description: 'When a step of the task read the notice.' }),
    consumedStep: t.exposeInt('consumedStep', { nullable: true, description: 'The step (ordinal in the task) that read it.' }),
  }),
});
