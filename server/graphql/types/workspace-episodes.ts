// Workspace.episodes: episodic memory for integrators — the viewer's own episodes, found by words,
// task, subject and time, with citations; paged by position (relevance is no creation order).
import { listEpisodes } from '../../services/memory/episodes.ts';
import { builder } from '../builder.ts';
import { parseOptionalGlobalId } from '../ids.ts';
import { offsetConnection } from '../pagination.ts';
import { MemoryEpisodeRef, WorkspaceRef } from '../refs.ts';

builder.objectField(WorkspaceRef, 'episodes', (t) =>
  t.connection({
    type: MemoryEpisodeRef,
    description:
      "The viewer's episodes of earlier work (their own phase summaries), newest first, or best first with a query. A query is read for the time it names (\"last week\", \"letzte Woche\", \"in March\", \"上周\"…, unless from/to are given) and the words an episode must meet (its value, its subject, its task's title and brief).",
    args: {
      query: t.arg.string({ required: false, description: 'Free text, at most 300 characters; not blank.' }),
      from: t.arg({ type: 'DateTime', required: false, description: 'Phases on days from this time on.' }),
      to: t.arg({ type: 'DateTime', required: false, description: 'Phases on days before this time; after from.' }),
      taskId: t.arg.id({ required: false, description: 'Only the phases of this task.' }),
      subject: t.arg.string({ required: false, description: 'An exact subject key, or a prefix ending in "." (e.g. "preference.").' }),
    },
    resolve: (w, args, ctx) => {
      const taskId = parseOptionalGlobalId(args.taskId, 'Task', 'taskId');
      return offsetConnection({ args, defaultSize: 20, maxSize: 100 }, ({ limit, offset }) =>
        listEpisodes(ctx.deps, ctx.viewer, { workspaceId: w.id, query: args.query, from: args.from, to: args.to, taskId, subject: args.subject }, { offset, limit }),
      );
    },
  }),
);
