import { builder } from '../builder.ts';
import { ApprovalReasonCodeEnum } from '../enums/approval-reason-code.ts';
import { ApprovalReasonRef } from '../refs.ts';

const CODES = ['AUTONOMY_MANUAL', 'CREDENTIAL_CONFIRMS_EACH', 'PER_ACTION_LIMIT', 'DAILY_LIMIT', 'PLAN_BUDGET', 'IRREVERSIBLE', 'WORKS_CONTAIN_VALUE', 'INPUT_CHANGED', 'CHECKPOINT', 'BUDGET_CAP'] as const;

builder.objectType(ApprovalReasonRef, {
  description: 'Why a person must decide: which threshold the action crosses, or that it cannot be undone.',
  fields: (t) => ({
    code: t.field({
      type: ApprovalReasonCodeEnum,
      description: 'The reason as a code.',
      resolve: (r) => ((CODES as readonly string[]).includes(r.code) ? (r.code as (typeof CODES)[number]) : 'OTHER'),
    }),
    message: t.exposeString('message', { description: "The reason in words, in the task's language." }),
  }),
});
