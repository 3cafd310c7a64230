import { encodeGlobalID } from '@pothos/plugin-relay';
import type { ScheduleRow } from '../../services/schedules/list-schedules.ts';
import { builder } from '../builder.ts';
import { ScheduleRef } from '../refs.ts';

export const SchedulePayload = builder.objectRef<{ schedule: ScheduleRow }>('SchedulePayload').implement({
  description: 'A schedule after a change.',
  fields: (t) => ({ schedule: t.field({ type: ScheduleRef, description: 'The schedule as it is now (with its new version and next run).', resolve: (p) => p.schedule }) }),
});

export const DeleteSchedulePayload = builder.objectRef<{ schedule: ScheduleRow }>('DeleteSchedulePayload').implement({
  description: 'A deleted schedule.',
  fields: (t) => ({
    deletedScheduleId: t.id({ description: 'The schedule that was deleted: nothing runs any more, and it is gone from every list.', resolve: (p) => encodeGlobalID('Schedule', p.schedule.id) }),
  }),
});
