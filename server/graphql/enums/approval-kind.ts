import { builder } from '../builder.ts';

export const ApprovalKindEnum = builder.enumType('ApprovalKind', {
  description: 'What an approval asks a person to decide.',
  values: {
    PAID_ACTION: { description: 'A priced action above a confirmation-free amount, the daily limit or the approved plan budget (reasons say which).' },
    PLAN: { description: 'A plan with its budget; approving it approves the budget for the paid steps inside it.' },
    IRREVERSIBLE: { description: 'Deleting an object or forgetting a memory or source: nothing happens until a person approves.' },
    CHECKPOINT: { description: 'A moment the task asks a person: confirm, choose among candidates (options), or say what to change.' },
    BUDGET_CAP: {
      description:
        'The task reached its budget cap (workspace setting atBudgetCap = PAUSE) and waits: approving raises the cap to the amount on the card and the task goes on exactly where it stopped; rejecting ends it as BUDGET_EXCEEDED.',
    },
    QUESTION: {
      description:
        'A question about a message of your main thread: which task it is for, or whether to stop paid work. Answered by picking an option (decision PICK); the answer routes that message. Reached through Message.approval or SendMessagePayload.approval, not the approval lists.',
    },
  } as const,
});
