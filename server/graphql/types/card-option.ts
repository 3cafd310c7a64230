import { builder } from '../builder.ts';
import { CardOptionRef, TaskRef } from '../refs.ts';

builder.objectType(CardOptionRef, {
  description: 'One answer to a question of the main thread (former name of an ApprovalOption of a QUESTION approval).',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'What to pass as choice (resolveApproval) or optionId (answerCard).' }),
    label: t.exposeString('label', { description: 'What the option says.' }),
    action: t.exposeString('action', { description: '"continue": the message goes to the task; "create": it becomes a new task.' }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task the message goes to (null for a new task).', resolve: (o, _a, ctx) => (o.taskId ? ctx.loaders.task.load(o.taskId) : null) }),
  }),
});
