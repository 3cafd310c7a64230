// Background work without waiting: how long a job waits before its handler starts, per pg-boss
// queue, on an idle app with an in-process worker (concurrency 1, as `npm start` runs one), and how
// long a lasting fact stated in a message takes to be retrievable from memory.
//   - pickup: N jobs per queue, one at a time (the next is sent once the previous one's handler has
//     started), from just before the send's transaction to the moment pg-boss hands the job to its
//     handler (the worker's handlers are wrapped where they are registered). The queues are every
//     pg-boss queue the server has: turn wake-ups, recovery wake-ups, memory extraction. (Job
//     reconciliation is a timer of the worker, not a queue; provider callbacks are HTTP requests.)
//     A turn wake-up names a turn that does not exist, so its handler starts and finds nothing to run.
//   - fact → retrievable: sendMessage with "our brand colour is <c>" (a new colour each time), then
//     the retrieval the worker's context runs for a text naming it, polled every few milliseconds,
//     until the top memory's value is <c>; with the rule-based extractor the tests use.
import { randomUUID } from 'node:crypto';
import type { Viewer } from '../../../server/auth/viewer.ts';
import { enqueueMemoryExtraction, MEMORY_QUEUE, type MemoryJob } from '../../../server/services/memory/jobs.ts';
import { retrieveMemories } from '../../../server/services/memory/retrieve-memories.ts';
import { sendMessage } from '../../../server/services/messages/send-message.ts';
import { RECOVERY_QUEUE, TURN_QUEUE, type TurnJob } from '../../../server/store/scheduler.ts';
import { startTestApp } from '../../helpers/app.ts';
import { pause } from '../../helpers/wait.ts';
import { percentile } from '../stats.ts';

export type QueuePickup = { queue: string; samples: number; p50: number; p99: number; max: number; missed: number };
export type PickupFigures = { queues: QueuePickup[]; fact: { samples: number; p50: number; p99: number; max: number; missed: number } };

/** Polls `check` every `everyMs` until it holds or `timeoutMs` passed; returns whether it held. */
async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 2): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (await check()) return true;
    // Polling pace of the measurement itself (it bounds its resolution), not a wait for the system.
    await pause(everyMs);
  }
  return check();
}

const summary = (xs: number[]) => ({ samples: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: xs.length ? Math.max(...xs) : NaN });

export async function benchPickup(opts: { quick: boolean }): Promise<PickupFigures> {
  const n = opts.quick ? 20 : 60;
  const facts = opts.quick ? 10 : 30;
  const t = await startTestApp('pickup');
  const boss = t.app.deps.scheduler.boss;
  // When each job reached its handler, by the key its data carries.
  const started = new Map<string, number>();
  const key = (data: unknown) => {
    const d = data as Partial<TurnJob & MemoryJob>;
    return d.turnId ?? d.evidenceId ?? '';
  };
  const originalWork = boss.work.bind(boss) as (...args: unknown[]) => Promise<string>;
  (boss as unknown as { work: (...args: unknown[]) => Promise<string> }).work = (name: unknown, options: unknown, handler: unknown) =>
    originalWork(name, options, async (jobs: { data: unknown }[]) => {
      for (const j of jobs) started.set(key(j.data), performance.now());
      return (handler as (jobs: unknown) => Promise<unknown>)(jobs);
    });
  const worker = await t.app.startWorker({ concurrency: 1 });
  try {
    const prisma = t.app.deps.prisma;
    const scheduler = t.app.deps.scheduler;
    const sends: Record<string, () => Promise<string>> = {
      [TURN_QUEUE]: async () => {
        const turnId = randomUUID();
        await scheduler.enqueueTurn(prisma, { turnId, generation: 1 });
        return turnId;
      },
      [RECOVERY_QUEUE]: async () => {
        const turnId = randomUUID();
        await scheduler.enqueueTurn(prisma, { turnId, generation: 1 }, { recovery: true });
        return turnId;
      },
      [MEMORY_QUEUE]: async () => {
        const messageId = randomUUID();
        await prisma.$transaction((tx) =>
          enqueueMemoryExtraction(tx, scheduler, { id: messageId, workspaceId: t.b.workspaceId, authorUserId: t.b.ownerId, taskId: null, text: `note ${messageId.slice(0, 8)}: nothing to remember`, createdAt: new Date() }),
        );
        const ev = await prisma.memoryEvidence.findUniqueOrThrow({ where: { messageId }, select: { id: true } });
        return ev.id;
      },
    };
    const queues: QueuePickup[] = [];
    for (const [queue, send] of Object.entries(sends)) {
      const waits: number[] = [];
      let missed = 0;
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const id = await send();
        if (await until(() => started.has(id), 5_000, 1)) waits.push(started.get(id)! - t0);
        else missed++;
      }
      queues.push({ queue, ...summary(waits), missed });
    }

    const viewer: Viewer = { userId: t.a.ownerId, credentialId: 'bench', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' };
    const colours = ['teal', 'navy', 'coral', 'ochre', 'sage', 'crimson', 'mustard', 'lavender', 'olive', 'ivory', 'charcoal', 'magenta', 'turquoise', 'amber', 'indigo'];
    const delays: number[] = [];
    let missed = 0;
    for (let i = 0; i < facts; i++) {
      const colour = colours[i % colours.length]!;
      const t0 = performance.now();
      await sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text: `our brand colour is ${colour}`, idempotencyKey: `pickup-fact-${i}` });
      const found = await until(async () => {
        const got = await retrieveMemories(prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, text: 'what is our brand colour?', limit: 1 });
        return got[0]?.value.toLowerCase() === colour;
      }, 10_000, 5);
      if (found) delays.push(performance.now() - t0);
      else missed++;
    }
    return { queues, fact: { ...summary(delays), missed } };
  } finally {
    await worker.stop();
    await t.close();
  }
}
