import { builder } from '../builder.ts';
import { ApprovalReasonCodeEnum, reasonCodeOf } from '../enums/approval-reason-code.ts';
import { ApprovalReasonRef } from '../refs.ts';

builder.objectType(ApprovalReasonRef, {
  description: 'Why a person must decide: which threshold the action crosses, or that it cannot be undone.',
  fields: (t) => ({
    code: t.field({
      type: ApprovalReasonCodeEnum,
      description: 'The reason as a code.',
      resolve: (r) => reasonCodeOf(r.code),
    }),
    message: t.exposeString('message', { description: "The reason in words, in the task's language." }),
  }),
});
