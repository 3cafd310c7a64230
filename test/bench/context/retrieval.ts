// Memory retrieval at 10,000 memories, under load: the latency of the worker's memory context (the
// `WorkerMemory.contextFor` port a step calls before its model request — withheld material, the
// profile, the memories relevant to the task, the brand rules, the episodes of earlier work, and
// the memory_uses it records), with the product's own memory budget (ATELIER_MEMORY_TIMEOUT_MS's
// default), on a fresh database:
//   - workspace A holds 10,000 memories of five users (seed-memories.ts: every kind and scope,
//     version chains, forgotten memories, evidence, episodes, profiles, earlier uses); workspace B
//     5,000 more, so every read must keep to its workspace;
//   - the measured loop runs contextFor for the owner's tasks one after another, a new step ordinal
//     each time (as successive steps do), and beside each sample a primary-key SELECT of the task
//     on the same pool: the baseline, one round trip under the same load;
//   - the load, all the while, in the same process (as a worker's other slots run beside a step):
//     two other workers' step loops, each the retrieval for a task of another member followed by
//     the three event appends of a step (appendNow: insert, sequencing, NOTIFY), back to back, no
//     pause — every slot of a three-slot worker in its memory phase at once.
// Afterwards: how many MEMORY_UNAVAILABLE events the retrievals wrote (the database was up the whole
// time, so any is a failure), and the sequential scans PostgreSQL counted on the memory tables
// during the run (pg_stat_user_tables), with the rows they read.
import { loadConfig } from '../../../server/config.ts';
import { appendNow } from '../../../server/channel/unit-of-work.ts';
import { rawQuery } from '../../../server/db/client.ts';
import { startTestApp } from '../../helpers/app.ts';
import { pause } from '../../helpers/wait.ts';
import { percentile } from '../stats.ts';
import { seedMemoryWorkspace } from './seed-memories.ts';

/** The tables retrieval reads, whose sequential scans are counted. */
export const MEMORY_TABLES = ['memories', 'memory_versions', 'memory_evidence', 'memory_links', 'memory_summaries', 'memory_summary_sentences', 'memory_uses', 'memory_profiles'] as const;

export type RetrievalFigures = {
  memories: number;
  /** Other memory rows of the database (workspace B, memberships' versions, evidence…) by table. */
  rows: Record<string, number>;
  seedMs: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
  /** The same retrieval with no other work in the process (what one step alone pays). */
  idleP50: number;
  idleP99: number;
  /** One primary-key SELECT on the same pool, beside each sample. */
  baselineP50: number;
  baselineP99: number;
  /** MEMORY_UNAVAILABLE events written during the run (the database was up). */
  unavailableCount: number;
  /** Retrievals that returned no section (every measured task has memories to show). */
  emptySections: number;
  /** Sequential scans during the run and the rows they read, by memory table. */
  seqScans: Record<string, { scans: number; rows: number }>;
  /** Load: other workers' retrievals and event appends completed during the measurement. */
  load: { workers: number; retrievals: number; appends: number; errors: number };
  budgetMs: number;
};

type ScanStats = Map<string, { scans: number; rows: number }>;

async function scanStats(query: (sql: string, params: unknown[]) => Promise<{ relname: string; seq_scan: string; seq_tup_read: string }[]>): Promise<ScanStats> {
  const rows = await query(`SELECT relname, seq_scan::text, seq_tup_read::text FROM pg_stat_user_tables WHERE relname = ANY($1::text[])`, [[...MEMORY_TABLES]]);
  return new Map(rows.map((r) => [r.relname, { scans: Number(r.seq_scan), rows: Number(r.seq_tup_read) }]));
}

const same = (a: ScanStats, b: ScanStats) => [...a].every(([k, v]) => b.get(k)?.scans === v.scans && b.get(k)?.rows === v.rows);

/**
 * The counts once every backend has reported: statistics reach pg_stat_user_tables when a backend
 * has been idle, at most once a second, so two reads a second apart must agree (deliberate pauses).
 */
async function settledScanStats(query: Parameters<typeof scanStats>[0]): Promise<ScanStats> {
  let last = await scanStats(query);
  for (let i = 0; i < 8; i++) {
    await pause(1100);
    const next = await scanStats(query);
    if (same(next, last)) return next;
    last = next;
  }
  return last;
}

export async function benchMemoryRetrieval(opts: { quick: boolean; memories?: number; samples?: number }): Promise<RetrievalFigures> {
  const memories = opts.memories ?? 10_000;
  const samples = opts.samples ?? (opts.quick ? 100 : 600);
  // The product's budget, not the test apps' (10 s): a retrieval past it is MEMORY_UNAVAILABLE.
  const budgetMs = loadConfig({}).memory!.timeoutMs;
  const t = await startTestApp('memretrieval', { memory: { timeoutMs: budgetMs } });
  try {
    const prisma = t.app.deps.prisma;
    const memory = t.app.deps.runtime.memory!;
    const seedStarted = performance.now();
    const a = await seedMemoryWorkspace(t.dbUrl, { workspaceId: t.a.workspaceId, ownerId: t.a.ownerId, memories, label: 'a' });
    const b = await seedMemoryWorkspace(t.dbUrl, { workspaceId: t.b.workspaceId, ownerId: t.b.ownerId, memories: Math.round(memories / 2), label: 'b' });
    const seedMs = performance.now() - seedStarted;
    // The measured tasks: the owner's live work, briefs in the seeded vocabulary (some words meet
    // memories, most do not).
    const briefs = [
      ['Autumn coffee poster series', 'Three posters in warm terracotta tones with the brand font, minimal style'],
      ['Launch video for the Porto studio', 'A 30 second video, retro look, charcoal and coral'],
      ['Menu redesign', 'New menu for the Lyon café, hand-drawn illustrations'],
      ['Packaging for the spring label', 'Box and label in sage and ivory, flat style'],
      ['Newsletter banner', 'Banner for the December newsletter'],
      ['Storyboard for the Osaka campaign', 'Twelve frames, isometric scenes, navy and mustard'],
    ];
    const measured = [];
    for (const [title, goal] of briefs) {
      measured.push(await prisma.task.create({ data: { workspaceId: t.a.workspaceId, createdById: t.a.ownerId, title: title!, goal: goal!, status: 'RUNNING' } }));
    }
    // The other workers' tasks: seeded tasks of the other members.
    const others = await prisma.task.findMany({ where: { workspaceId: t.a.workspaceId, createdById: { in: a.userIds.slice(1) } }, select: { id: true }, take: 8 });
    const unavailableBefore = await prisma.taskEvent.count({ where: { workspaceId: t.a.workspaceId, type: 'MEMORY_UNAVAILABLE' } });

    // Warm-up: connections, plans, the profile cache — as a worker that has run for a while.
    for (let i = 0; i < 12; i++) await memory.contextFor(measured[i % measured.length]!.id, i);

    // Alone first: what one step pays with nothing else running.
    const idle: number[] = [];
    for (let i = 0; i < (opts.quick ? 25 : 100); i++) {
      const t0 = performance.now();
      await memory.contextFor(measured[i % measured.length]!.id, 10_000 + i);
      idle.push(performance.now() - t0);
    }

    const query = (sql: string, params: unknown[]) => rawQuery<{ relname: string; seq_scan: string; seq_tup_read: string }>(prisma, sql, params);
    const scansBefore = await settledScanStats(query);
    const load = { workers: 2, retrievals: 0, appends: 0, errors: 0 };
    let stop = false;
    const worker = async (w: number) => {
      for (let step = 100; !stop; step++) {
        const task = others[(w + step * load.workers) % others.length]!.id;
        try {
          await memory.contextFor(task, step);
          load.retrievals++;
          for (let e = 0; e < 3 && !stop; e++) {
            await appendNow(t.app.deps, task, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: { w, step, e } }]);
            load.appends++;
          }
        } catch {
          load.errors++;
        }
      }
    };
    const loaders = Array.from({ length: load.workers }, (_, w) => worker(w));
    const times: number[] = [];
    const baseline: number[] = [];
    let emptySections = 0;
    try {
      for (let i = 0; i < samples; i++) {
        const task = measured[i % measured.length]!.id;
        const t0 = performance.now();
        const got = await memory.contextFor(task, 12 + i);
        times.push(performance.now() - t0);
        if (!got.section) emptySections++;
        const b0 = performance.now();
        await rawQuery(prisma, `SELECT id FROM tasks WHERE id = $1::uuid`, [task]);
        baseline.push(performance.now() - b0);
      }
    } finally {
      stop = true;
      await Promise.all(loaders);
    }
    const scansAfter = await settledScanStats(query);
    const seqScans: RetrievalFigures['seqScans'] = {};
    for (const table of MEMORY_TABLES) {
      const x = scansAfter.get(table);
      const y = scansBefore.get(table);
      seqScans[table] = { scans: (x?.scans ?? 0) - (y?.scans ?? 0), rows: (x?.rows ?? 0) - (y?.rows ?? 0) };
    }
    const unavailableCount = (await prisma.taskEvent.count({ where: { workspaceId: t.a.workspaceId, type: 'MEMORY_UNAVAILABLE' } })) - unavailableBefore;
    return {
      memories,
      rows: Object.fromEntries(Object.entries(a.rows).map(([k, v]) => [k, v + (b.rows[k] ?? 0)])),
      seedMs,
      samples: times.length,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: Math.max(...times),
      idleP50: percentile(idle, 50),
      idleP99: percentile(idle, 99),
      baselineP50: percentile(baseline, 50),
      baselineP99: percentile(baseline, 99),
      unavailableCount,
      emptySections,
      seqScans,
      load,
      budgetMs,
    };
  } finally {
    await t.close();
  }
}
