// After a forgetting: removing the forgotten value from the works its card lists, as the person chooses.
import { redactWorks } from '../../services/memory/redact-works.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { RedactWorksInput } from '../inputs/redact-works-input.ts';
import { RedactWorksPayload } from '../payloads/redact-works-payload.ts';

builder.mutationFields((t) => ({
  redactWorks: t.field({
    type: RedactWorksPayload,
    description:
      'After a forgetting was approved, its requester chooses the listed works to remove the value from: each gets a new version with the value replaced by a marker, and its earlier versions that contained it are withheld. Works not chosen stay as they are. One choice per card.',
    args: { input: t.arg({ type: RedactWorksInput, required: true, description: 'The approved forgetting and the works chosen.' }) },
    resolve: async (_r, { input }, ctx) => ({
      approval: await redactWorks(ctx.deps, ctx.viewer, {
        approvalId: parseGlobalId(String(input.approvalId), 'Approval', 'input.approvalId'),
        objectIds: input.objectIds.map((id, i) => parseGlobalId(String(id), 'WorkspaceObject', `input.objectIds.${i}`)),
        idempotencyKey: input.idempotencyKey,
      }),
    }),
  }),
}));
