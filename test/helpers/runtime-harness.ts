// The durable-runtime test harness (test/runtime-*.test.ts): an app with a short lease and a
// scripted model, tasks and their turns, and test tools that can be frozen at a chosen instant.
import { z } from 'zod';
import { createTask } from '../../server/services/tasks/create-task.ts';
import type { Viewer } from '../../server/auth/viewer.ts';
import { ScriptedChatModel, type Script } from '../../server/runtime/models/scripted-model.ts';
import { scriptedProvider } from '../../server/runtime/models/provider.ts';
import { defineTool, type ToolDef } from '../../server/runtime/tools/types.ts';
import { startTestApp, type TestApp } from './app.ts';
import { eventually } from './produce.ts';

export const LEASE_MS = 400;

/** A promise that a test resolves by hand: freezes a tool (or model call) at a chosen instant. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

export type Harness = { t: TestApp; model: ScriptedChatModel; viewer: Viewer };

export async function harness(label: string, script: Script, tools: ToolDef[]): Promise<Harness> {
  const model = new ScriptedChatModel(script);
  const t = await startTestApp(
    label,
    { runtime: { leaseMs: LEASE_MS, watchdogMs: 100, staleQueuedMs: 300, workerConcurrency: 2, maxStepsPerTurn: 12, maxTurnsPerTask: 25, plugin: undefined } },
    { models: scriptedProvider(model), tools },
  );
  const viewer: Viewer = {
    userId: t.a.ownerId,
    credentialId: 'test',
    scopes: new Set(['READ', 'WRITE', 'APPROVE']),
    memberships: new Map([[t.a.workspaceId, 'OWNER']]),
  };
  return { t, model, viewer };
}

export async function newTask(h: Harness, title: string) {
  const task = await createTask(h.t.app.deps, h.viewer, { workspaceId: h.t.a.workspaceId, title });
  const turn = await h.t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  return { task, turnId: turn.id };
}

export async function leaseExpired(h: Harness, turnId: string) {
  await eventually(async () => {
    const r = await h.t.app.deps.prisma.$queryRawUnsafe<{ expired: boolean }[]>(
      'SELECT lease_expires_at < now() AS expired FROM turns WHERE id = $1::uuid',
      turnId,
    );
    return r[0]?.expired === true;
  }, 'lease expiry', 10_000);
}

export async function eventTypes(h: Harness, taskId: string) {
  return (await h.t.app.deps.prisma.taskEvent.findMany({ where: { taskId }, orderBy: { seq: 'asc' } })).map((e) => e.type);
}

/**
 * What the test tools recorded, and the gates the tests set to freeze them. The idempotent tool's
 * effects are keyed by idempotency key (one effect store); the first slow_write after `freeze` is
 * set waits on it.
 */
export const tools = {
  effects: new Map<string, number>(),
  freeze: null as ReturnType<typeof gate> | null,
  invocations: 0,
  chargeGate: null as ReturnType<typeof gate> | null,
  charges: 0,
  longWaitAborted: false,
};

const slowWrite = defineTool({
  name: 'slow_write',
  domain: 'core',
  description: 'Writes a value (idempotent by key).',
  // The right the agent policy requires for it (a tool that is not built in declares its own).
  scope: 'tasks:write',
  input: z.object({ value: z.string() }),
  output: z.object({ written: z.string() }),
  safety: 'IDEMPOTENT',
  async run(input, ctx) {
    tools.invocations++;
    const f = tools.freeze;
    tools.freeze = null;
    if (f) await f.opened; // the first invocation freezes
    tools.effects.set(ctx.idempotencyKey, (tools.effects.get(ctx.idempotencyKey) ?? 0) + 1);
    return { written: input.value };
  },
});
const charge = defineTool({
  name: 'charge',
  domain: 'core',
  description: 'Charges money. Must never run twice.',
  // The right the agent policy requires for it (a tool that is not built in declares its own).
  scope: 'jobs:order',
  input: z.object({ cents: z.number().int() }),
  output: z.object({ charged: z.number() }),
  safety: 'AT_MOST_ONCE',
  async run(input) {
    tools.charges++;
    if (tools.chargeGate) await tools.chargeGate.opened;
    return { charged: input.cents };
  },
  async verify() {
    return { happened: 'unknown' as const, detail: 'the payment provider has no lookup' };
  },
});

const longWait = defineTool({
  name: 'long_wait',
  domain: 'core',
  description: 'Waits a long time (a render, say); stops when told to.',
  // The right the agent policy requires for it (a tool that is not built in declares its own).
  scope: 'tasks:write',
  input: z.object({}),
  output: z.object({ waited: z.boolean() }),
  safety: 'READ_ONLY',
  async run(_input, ctx) {
    // The tool's own slowness is what is tested: only the abort may end it before a minute.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, 60_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        tools.longWaitAborted = true;
        reject(new Error('aborted'));
      });
    });
    return { waited: true };
  },
});

/** The tools every runtime test app offers the model: idempotent, at-most-once and abortable. */
export const TEST_TOOLS: ToolDef[] = [slowWrite, charge, longWait];
