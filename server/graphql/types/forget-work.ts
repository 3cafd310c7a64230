import { builder } from '../builder.ts';
import { ForgetWorkPlaceEnum } from '../enums/forget-work-place.ts';
import { ForgetWorkStatusEnum } from '../enums/forget-work-status.ts';
import { ObjectKindEnum } from '../enums/object-kind.ts';
import { ForgetWorkRef, WorkspaceObjectRef } from '../refs.ts';

builder.objectType(ForgetWorkRef, {
  description: 'A work (document, flow, asset, collection) whose name or content contained a value a forget card is about.',
  fields: (t) => ({
    objectId: t.globalID({ description: "The work's global id (WorkspaceObject.id).", resolve: (w) => ({ type: 'WorkspaceObject', id: w.objectId }) }),
    object: t.field({ type: WorkspaceObjectRef, nullable: true, description: 'The work.', resolve: (w, _a, ctx) => ctx.loaders.object.load(w.objectId) }),
    kind: t.field({ type: ObjectKindEnum, description: 'What the work is.', resolve: (w) => w.kind }),
    title: t.exposeString('name', { description: "The work's title now." }),
    name: t.exposeString('name', { description: "The work's title now, under its former name.", deprecationReason: 'Use title.' }),
    version: t.exposeInt('version', { description: 'The version that contained the value when the card was filed.' }),
    where: t.field({ type: [ForgetWorkPlaceEnum], description: 'Where it contains the value.', resolve: (w) => w.where }),
    status: t.field({ type: ForgetWorkStatusEnum, description: 'Whether the person chose it, and what became of it.', resolve: (w) => w.status }),
    redactedInVersion: t.exposeInt('redactedInVersion', { nullable: true, description: 'The version without the value, once removed.' }),
    withheldVersions: t.exposeIntList('withheldVersions', { description: 'Earlier versions that contained the value, now withheld from readers.' }),
  }),
});
