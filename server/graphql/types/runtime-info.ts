import type { ModelInfo } from '../../runtime/models/types.ts';
import { builder } from '../builder.ts';
import { listRuntimeProcesses } from '../../services/runtime/list-processes.ts';
import type { ProcessRow } from '../../store/processes.ts';

const RuntimeProcessRef = builder.objectRef<ProcessRow>('RuntimeProcess');
builder.objectType(RuntimeProcessRef, {
  description: 'A process of the product (API or worker) and its heartbeat.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'host:pid:suffix; the same id is on the turns it claims (TURN_STARTED.workerId) and the jobs it orders.' }),
    kind: t.exposeString('kind', { description: 'API or WORKER.' }),
    hostname: t.exposeString('hostname'),
    pid: t.exposeInt('pid'),
    concurrency: t.exposeInt('concurrency'),
    running: t.exposeInt('running', { description: 'Turns it was running at its last heartbeat.' }),
    alive: t.exposeBoolean('alive', { description: 'Beat within the last three heartbeat intervals and not stopped.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    readyAt: t.expose('readyAt', { type: 'DateTime', nullable: true }),
    lastBeatAt: t.expose('lastBeatAt', { type: 'DateTime' }),
    stoppedAt: t.expose('stoppedAt', { type: 'DateTime', nullable: true }),
  }),
});

const ModelInfoRef = builder.objectRef<ModelInfo>('ModelInfo');
builder.objectType(ModelInfoRef, {
  description: 'Which model the agent runs on. offline = no model is configured: answers are deterministic placeholders.',
  fields: (t) => ({
    provider: t.exposeString('provider'),
    workerModel: t.exposeString('workerModel'),
    routerModel: t.exposeString('routerModel'),
    offline: t.exposeBoolean('offline'),
    description: t.exposeString('description'),
  }),
});

export const RuntimeInfoRef = builder.objectRef<{ model: ModelInfo; tools: string[]; embeddingModel: string | null }>('RuntimeInfo');
builder.objectType(RuntimeInfoRef, {
  fields: (t) => ({
    model: t.field({ type: ModelInfoRef, resolve: (r) => r.model }),
    embeddingModel: t.exposeString('embeddingModel', { nullable: true, description: "The router's embedding model; null: retrieval by words only." }),
    tools: t.exposeStringList('tools'),
    processes: t.field({
      type: [RuntimeProcessRef],
      description: 'Processes seen in the last hour with their heartbeats (owners only; FORBIDDEN otherwise).',
      resolve: (_r, _a, ctx) => listRuntimeProcesses(ctx.deps, ctx.viewer),
    }),
  }),
});
