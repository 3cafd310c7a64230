import { TASK_STATUSES } from '../../domain/task-status.ts';
import { builder } from '../builder.ts';

export const TaskStatusEnum = builder.enumType('TaskStatus', {
  description: 'Where a task is. COMPLETED, FAILED, CANCELLED and BUDGET_EXCEEDED are terminal: a task reaches at most one.',
  values: TASK_STATUSES,
});

export const RoleEnum = builder.enumType('Role', { values: ['OWNER', 'MEMBER', 'VIEWER'] as const });
export const ScopeEnum = builder.enumType('Scope', { values: ['READ', 'WRITE', 'APPROVE'] as const });
export const ActorKindEnum = builder.enumType('ActorKind', { values: ['USER', 'AGENT', 'SYSTEM'] as const });
export const MessageRoleEnum = builder.enumType('MessageRole', { values: ['USER', 'ASSISTANT', 'SYSTEM'] as const });
export const TaskSignalEnum = builder.enumType('TaskSignal', {
  description:
    'Signals a person can send to a task. PAUSE/RESUME/CANCEL change its state; REVISE/ADD_CONTEXT reach its next step through the inbox.',
  values: ['PAUSE', 'RESUME', 'CANCEL', 'REVISE', 'ADD_CONTEXT'] as const,
});
