// Recovery figures: for each worker kill and each turn the worker held when it died, the time from
// the kill to the task's next event, and to the takeover's TURN_STARTED (the same turn at a higher
// generation). A held turn whose task was paused, cancelled or ended meanwhile has no takeover.
import type pg from 'pg';
import { fmt, percentile } from '../bench/stats.ts';
import type { Kill } from './chaos.ts';

export type Recovery = {
  held: number;
  nextEvent: number[];
  takeover: number[];
  /** From the lease's expiry (the earliest a takeover may happen) to the takeover. */
  afterExpiry: number[];
  /** The takeover decomposed (from pg-boss's recovery queue): expiry → wake-up sent (the watchdog),
   * → wake-up fetched by a worker, → TURN_STARTED committed (the claim). */
  phases: { detect: number[]; pickup: number[]; claim: number[] };
  noTakeover: { taskId: string; turn: number; why: string }[];
  slowest: { kill: number; taskId: string; turn: number; ms: number }[];
};

export async function measureRecovery(db: pg.Pool, kills: Kill[]): Promise<Recovery> {
  const r: Recovery = { held: 0, nextEvent: [], takeover: [], afterExpiry: [], phases: { detect: [], pickup: [], claim: [] }, noTakeover: [], slowest: [] };
  for (const k of kills.filter((x) => x.role === 'worker')) {
    for (const h of k.held) {
      r.held++;
      const at = new Date(k.at);
      const next = (await db.query<{ at: Date }>(`SELECT occurred_at AS at FROM task_events WHERE task_id = $1 AND occurred_at > $2 ORDER BY seq LIMIT 1`, [h.taskId, at])).rows[0];
      if (next) r.nextEvent.push(next.at.getTime() - k.at);
      const take = (
        await db.query<{ at: Date }>(
          `SELECT occurred_at AS at FROM task_events WHERE task_id = $1 AND type = 'TURN_STARTED' AND occurred_at > $2
              AND (payload->>'turn')::int = $3 AND (payload->>'generation')::int > $4 ORDER BY seq LIMIT 1`,
          [h.taskId, at, h.number, h.generation],
        )
      ).rows[0];
      if (take) {
        const ms = take.at.getTime() - k.at;
        r.takeover.push(ms);
        r.afterExpiry.push(take.at.getTime() - new Date(h.leaseExpiresAt).getTime());
        const wake = (
          await db
            .query<{ created: Date; started: Date | null }>(
              `SELECT created_on AS created, started_on AS started FROM pgboss.job WHERE name = 'atelier-turn-recovery' AND singleton_key = $1 ORDER BY created_on LIMIT 1`,
              [`${h.turnId}:${h.generation}`],
            )
            .catch(() => ({ rows: [] as { created: Date; started: Date | null }[] }))
        ).rows[0];
        if (wake?.started) {
          r.phases.detect.push(wake.created.getTime() - new Date(h.leaseExpiresAt).getTime());
          r.phases.pickup.push(wake.started.getTime() - wake.created.getTime());
          r.phases.claim.push(take.at.getTime() - wake.started.getTime());
        }
        r.slowest.push({ kill: k.n, taskId: h.taskId, turn: h.number, ms });
      } else {
        const turn = (await db.query<{ status: string; outcome: string | null }>(`SELECT status::text AS status, outcome FROM turns WHERE id = $1`, [h.turnId])).rows[0];
        r.noTakeover.push({ taskId: h.taskId, turn: h.number, why: `turn ${turn?.status ?? '?'}: ${turn?.outcome ?? ''}` });
      }
    }
  }
  r.slowest.sort((a, b) => b.ms - a.ms);
  return r;
}

export function summarize(xs: number[]): string {
  if (!xs.length) return 'no samples';
  return `n=${xs.length}  p50 ${fmt(percentile(xs, 50) / 1000, 2)} s  p95 ${fmt(percentile(xs, 95) / 1000, 2)} s  p99 ${fmt(percentile(xs, 99) / 1000, 2)} s  max ${fmt(Math.max(...xs) / 1000, 2)} s`;
}

/**
 * p99 of both measures against the bound. With fewer than MIN_SAMPLES samples a p99 is just the
 * maximum of a handful of draws (one scheduling hiccup on a loaded machine decides it): then only a
 * gross failure — a sample above twice the bound — fails the run, and a note says so.
 */
export const MIN_SAMPLES = 10;
export function recoveryVerdict(r: Recovery, boundMs: number): { ok: boolean; lines: string[] } {
  const lines: string[] = [];
  let ok = true;
  for (const [name, xs] of [['kill → next event', r.nextEvent], ['kill → takeover TURN_STARTED', r.takeover]] as const) {
    if (!xs.length) {
      lines.push(`${name}: no samples (no worker died holding a turn) — nothing to judge`);
      continue;
    }
    const p99 = percentile(xs, 99);
    if (xs.length < MIN_SAMPLES) {
      const max = Math.max(...xs);
      const pass = max <= 2 * boundMs;
      ok &&= pass;
      lines.push(`${name}: only ${xs.length} samples (< ${MIN_SAMPLES}): p99 not judged; max ${fmt(max / 1000, 2)} s ${pass ? '≤' : '>'} 2 × bound ${fmt((2 * boundMs) / 1000, 1)} s`);
      continue;
    }
    const pass = p99 <= boundMs;
    ok &&= pass;
    lines.push(`${name}: p99 ${fmt(p99 / 1000, 2)} s ${pass ? '≤' : '>'} bound ${fmt(boundMs / 1000, 1)} s (${xs.length} samples)`);
  }
  return { ok, lines };
}
