// The input policies: what a person's message (or REVISE / ADD_CONTEXT) does when it arrives while
// its task runs. The task has one (Task.inputPolicy, QUEUE unless set); a message may bring its own.
// The runtime applies INTERRUPT and ROLLBACK (runtime/input-policy.ts); the services refuse for
// REJECT (send-message.ts, signal-task.ts).
export const INPUT_POLICIES = ['QUEUE', 'INTERRUPT', 'REJECT', 'ROLLBACK'] as const;
export type InputPolicyName = (typeof INPUT_POLICIES)[number];
