import { builder } from '../builder.ts';
import { ObjectKindEnum } from '../enums/object-kind.ts';

export const CreateObjectInput = builder.inputType('CreateObjectInput', {
  description: 'A new object of the shared workspace. Give title (name is its former spelling).',
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace it belongs to.' }),
    kind: t.field({ type: ObjectKindEnum, required: true, description: 'What it is; decides the shape of content.' }),
    title: t.string({ required: false, description: 'Its title (1–200 characters). Required (or name, its former spelling).' }),
    name: t.string({ required: false, description: 'Its title, under its former name.', deprecationReason: 'Use title.' }),
    content: t.field({
      type: 'JSON',
      required: true,
      description: 'By kind: { markdown } | { nodes, edges } | { items: [{ objectId, note }] } | { file, provenance }. Objects it names (items[].objectId, provenance.jobId / taskId) by their global ids.',
    }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the same object.' }),
  }),
});
