import { builder } from '../builder.ts';
import { ForgetWorkPlaceEnum } from '../enums/forget-work-place.ts';
import { ForgetWorkStatusEnum } from '../enums/forget-work-status.ts';
import { ObjectKindEnum } from '../enums/object-kind.ts';
import { ForgetWorkRef, WorkspaceObjectRef } from '../refs.ts';

builder.objectType(ForgetWorkRef, {
  description: 'A work (document, flow, asset, collection) whose name or content contained a value a forget card is about.',
  fields: (t) => ({
    objectId: t.globalID({ description: 'The WorkspaceObject.', resolve: (w) => ({ type: 'WorkspaceObject', id: w.objectId }) }),
    object: t.field({ type: WorkspaceObjectRef, nullable: true, resolve: (w, _a, ctx) => ctx.loaders.object.load(w.objectId) }),
    kind: t.field({ type: ObjectKindEnum, resolve: (w) => w.kind }),
    name: t.exposeString('name', { description: "The work's name now." }),
    version: t.exposeInt('version', { description: 'The version that contained the value when the card was filed.' }),
    where: t.field({ type: [ForgetWorkPlaceEnum], resolve: (w) => w.where }),
    status: t.field({ type: ForgetWorkStatusEnum, resolve: (w) => w.status }),
    redactedInVersion: t.exposeInt('redactedInVersion', { nullable: true, description: 'The version without the value, once removed.' }),
    withheldVersions: t.exposeIntList('withheldVersions', { description: 'Earlier versions that contained the value, now withheld from readers.' }),
  }),
});
