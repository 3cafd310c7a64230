import { builder } from '../builder.ts';
import { ApprovalReasonRef } from '../refs.ts';

builder.objectType(ApprovalReasonRef, {
  description: 'Why a person must decide: which threshold the action crosses, or that it cannot be undone.',
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});
