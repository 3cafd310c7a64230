import { builder } from '../builder.ts';
import { ObjectKindEnum } from '../enums/object-kind.ts';

export const CreateObjectInput = builder.inputType('CreateObjectInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    kind: t.field({ type: ObjectKindEnum, required: true }),
    name: t.string({ required: true }),
    content: t.field({ type: 'JSON', required: true, description: 'By kind: { markdown } | { nodes, edges } | { items } | { file, provenance }.' }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the same object.' }),
  }),
});
