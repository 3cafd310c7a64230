import { builder } from '../builder.ts';

export const UpdateObjectInput = builder.inputType('UpdateObjectInput', {
  fields: (t) => ({
    objectId: t.id({ required: true }),
    baseVersion: t.int({ required: true, description: 'The version you edited; a stale one is CONFLICT (extensions.currentVersion).' }),
    content: t.field({ type: 'JSON', required: true }),
    name: t.string({ required: false }),
    idempotencyKey: t.string({ required: false }),
  }),
});
