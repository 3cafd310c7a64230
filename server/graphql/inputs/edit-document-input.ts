import { builder } from '../builder.ts';
import { FindReplaceInput } from './find-replace-input.ts';

export const EditDocumentInput = builder.inputType('EditDocumentInput', {
  description: 'Exact find/replace edits of a document, applied all together or not at all.',
  fields: (t) => ({
    objectId: t.id({ required: true, description: 'The document (WorkspaceObject.id).' }),
    baseVersion: t.int({ required: false, description: 'The version you read; when the document changed since, a find that no longer matches once is CONFLICT instead of BAD_USER_INPUT.' }),
    edits: t.field({ type: [FindReplaceInput], required: true, description: 'Each find must match exactly once in the current version.' }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the version written the first time.' }),
  }),
});
