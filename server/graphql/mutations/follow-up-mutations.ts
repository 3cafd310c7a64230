// Follow-up mutations (members with write access, auth/mutation-policy.ts): a thin resolver over
// server/services/follow-ups.
import { cancelFollowUp } from '../../services/follow-ups/cancel-follow-up.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { CancelFollowUpInput } from '../inputs/cancel-follow-up-input.ts';
import { FollowUpPayload } from '../payloads/follow-up-payload.ts';

builder.mutationFields((t) => ({
  cancelFollowUp: t.field({
    type: FollowUpPayload,
    description:
      'Cancel a pending follow-up of the agent: it will not wake the task. One that already came due or was cancelled is a CONFLICT (reason FOLLOW_UP_NOT_PENDING, extensions.status) with a sentence, and nothing changes.',
    args: { input: t.arg({ type: CancelFollowUpInput, required: true, description: 'Which follow-up.' }) },
    resolve: async (_r, { input }, ctx) => ({
      followUp: await cancelFollowUp(ctx.deps, ctx.viewer, { followUpId: parseGlobalId(String(input.followUpId), 'FollowUp', 'input.followUpId') }),
    }),
  }),
}));
