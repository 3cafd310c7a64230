import type { FollowUpRow } from '../../services/follow-ups/list-follow-ups.ts';
import { builder } from '../builder.ts';
import { FollowUpRef } from '../refs.ts';

export const FollowUpPayload = builder.objectRef<{ followUp: FollowUpRow }>('FollowUpPayload').implement({
  description: 'A follow-up after a change.',
  fields: (t) => ({ followUp: t.field({ type: FollowUpRef, description: 'The follow-up as it is now.', resolve: (p) => p.followUp }) }),
});
