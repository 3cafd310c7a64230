import type { ApprovalReasonCode } from '../../domain/approval-policy.ts';
import { builder } from '../builder.ts';

/** One value per code the policy gives (a new code fails to compile until it is described here), and OTHER. */
const VALUES: Record<ApprovalReasonCode | 'OTHER', { description: string }> = {
  AUTONOMY_MANUAL: { description: 'The autonomy level is MANUAL: every paid action is confirmed.' },
  CREDENTIAL_CONFIRMS_EACH: { description: 'The task was started by an integration token, whose paid actions are confirmed one by one.' },
  PER_ACTION_LIMIT: { description: 'The price is above the confirmation-free amount per action.' },
  DAILY_LIMIT: { description: "The price would take the workspace's spending today above the confirmation-free amount per day." },
  PLAN_BUDGET: { description: 'The plan (or this action) needs a budget a person approves.' },
  IRREVERSIBLE: { description: 'It cannot be undone.' },
  WORKS_CONTAIN_VALUE: { description: 'Works of the person contain the value being forgotten (listed in Approval.works).' },
  INPUT_CHANGED: { description: 'Something finished steps were made from has changed (a person edited the character sheet): the card says which results would be made again, for what price, and which stay valid.' },
  CHECKPOINT: { description: 'The task asks a person before it goes on.' },
  BUDGET_CAP: { description: 'The task reached its budget cap and waits for a person to raise it (atBudgetCap = PAUSE).' },
  OTHER: { description: 'A reason this version of the API has no code for; read the message.' },
};

/** The code as the API shows it: OTHER for one this version does not know (e.g. from older rows). */
export const reasonCodeOf = (code: string): ApprovalReasonCode | 'OTHER' => (code !== 'OTHER' && code in VALUES ? (code as ApprovalReasonCode) : 'OTHER');

export const ApprovalReasonCodeEnum = builder.enumType('ApprovalReasonCode', {
  description: 'Why an approval needs a person, as a code (ApprovalReason.message says it in words, in the task\'s language).',
  values: VALUES,
});
