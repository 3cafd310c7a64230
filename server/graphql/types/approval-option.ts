import { builder } from '../builder.ts';
import { ApprovalOptionRef } from '../refs.ts';

builder.objectType(ApprovalOptionRef, {
  fields: (t) => ({ id: t.exposeString('id'), label: t.exposeString('label'), objectId: t.exposeString('objectId', { nullable: true }) }),
});
