import { builder } from '../builder.ts';

export const UpdateObjectInput = builder.inputType('UpdateObjectInput', {
  description: "A new version of an object: its whole content (and optionally its title), based on the version you read.",
  fields: (t) => ({
    objectId: t.id({ required: true, description: 'The object (WorkspaceObject.id).' }),
    baseVersion: t.int({ required: true, description: 'The version you edited; a stale one is CONFLICT (extensions.currentVersion).' }),
    content: t.field({ type: 'JSON', required: true, description: 'The whole new content, shaped by the object\'s kind (see CreateObjectInput.content); objects it names by their global ids.' }),
    title: t.string({ required: false, description: 'A new title (1–200 characters); omit to keep it.' }),
    name: t.string({ required: false, description: 'A new title, under its former name.', deprecationReason: 'Use title.' }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the version written the first time.' }),
  }),
});
