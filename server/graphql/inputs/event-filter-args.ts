// The type and visibility filters every event read and stream takes. They only drop events: what
// is selected keeps its seq, cursor and order, so resuming a filtered stream from the last cursor
// it delivered misses nothing it selects and repeats nothing.
import { builder } from '../builder.ts';
import { EventVisibilityEnum } from '../enums/event-visibility.ts';
import { TaskEventTypeEnum } from '../enums/task-event-type.ts';

type ArgBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg'];

export const eventFilterArgs = (arg: ArgBuilder) => ({
  types: arg({
    type: [TaskEventTypeEnum],
    required: false,
    description: 'Only events of these types (absent or empty: every type).',
  }),
  visibility: arg({
    type: [EventVisibilityEnum],
    required: false,
    description: 'Only events of these visibilities (MILESTONE: what people care about; DETAIL: internals). Combined with types: both must match.',
  }),
});
