// Assembles the schema. Only imports: every type registers itself with the builder.
import { builder } from './builder.ts';
import './scalars.ts';
import './types/enums.ts';
import './types/user.ts';
import './types/workspace.ts';
import './types/thread.ts';
import './types/journal.ts';
import './types/generation.ts';
import './types/task.ts';
import './types/task-event.ts';
import './types/approval.ts';
import './types/checklist.ts';
import './types/cost.ts';
import './types/workspace-object.ts';
import './types/runtime-info.ts';
import './types/routing.ts';
import './types/memory.ts';
import './types/viewer.ts';
import './types/query.ts';
import './mutations/task-mutations.ts';
import './mutations/message-mutations.ts';
import './mutations/approval-mutations.ts';
import './mutations/memory-mutations.ts';
import './subscriptions/event-subscriptions.ts';
import './mutations/object-mutations.ts';
import './subscriptions/object-subscriptions.ts';

export const schema = builder.toSchema({ sortSchema: true });
