import { assetIdForJob } from '../../services/objects/load-objects.ts';
import type { Context } from '../context.ts';
import { builder } from '../builder.ts';
import { globalId } from '../ids.ts';
import { ApprovalOptionRef, TaskRef, WorkspaceObjectRef, type ApprovalOption } from '../refs.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The object an option shows. The agent names a candidate's picture by the object's id or by the id
 * of the generation job that made it (whose asset has an id derived from the job's); either reads as
 * the object, and a name that is neither reads as none.
 */
async function objectOf(o: ApprovalOption, ctx: Context) {
  if (!o.objectId || !UUID.test(o.objectId)) return null;
  return (await ctx.loaders.object.load(o.objectId.toLowerCase())) ?? (await ctx.loaders.object.load(assetIdForJob(o.objectId.toLowerCase())));
}

builder.objectType(ApprovalOptionRef, {
  description: 'One choice of an approval: a candidate of a pick, or where a question sends the message.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'What to pass as choice to resolveApproval.' }),
    label: t.exposeString('label', { description: 'What the option says (e.g. "Candidate B", "Start a new task").' }),
    objectId: t.id({
      nullable: true,
      description: "The global id of the option's picture (a WorkspaceObject), for a candidate; null otherwise. The same as object.id.",
      resolve: async (o, _a, ctx) => {
        const object = await objectOf(o, ctx);
        return object ? globalId('WorkspaceObject', object.id) : null;
      },
    }),
    object: t.field({ type: WorkspaceObjectRef, nullable: true, description: "The option's picture, for a candidate.", resolve: (o, _a, ctx) => objectOf(o, ctx) }),
    task: t.field({
      type: TaskRef,
      nullable: true,
      description: 'For a question: the task this option sends the message to (null for "start a new task").',
      resolve: (o, _a, ctx) => (o.taskId ? ctx.loaders.task.load(o.taskId) : null),
    }),
  }),
});
