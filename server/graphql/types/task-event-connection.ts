import { builder } from '../builder.ts';
import { TaskEventRef } from '../refs.ts';

export const TaskEventConnectionRef = builder.connectionObject({ type: TaskEventRef, name: 'TaskEventConnection' });
