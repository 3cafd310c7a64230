import { builder } from '../builder.ts';
import { FindReplaceInput } from './find-replace-input.ts';

export const EditDocumentInput = builder.inputType('EditDocumentInput', {
  fields: (t) => ({
    objectId: t.id({ required: true }),
    baseVersion: t.int({ required: false }),
    edits: t.field({ type: [FindReplaceInput], required: true, description: 'Each find must match exactly once in the current version.' }),
    idempotencyKey: t.string({ required: false }),
  }),
});
