// bench:limits' measurement: every document sent by every caller, REPS times each, with the
// /health probe running; then, for the record, what the largest documents the limits accept cost.
// Each figure is the median over the repetitions (the slowest is kept too): a request that blocks
// the server does so every time, while the shared 2-core machine adds single spikes.
import { getIntrospectionQuery } from 'graphql';
import { percentile } from '../stats.ts';
import { CALLERS, REPS, type Who } from './config.ts';
import type { Case } from './documents.ts';
import { healthProbe, send, type Sample } from './server.ts';

export type Row = {
  doc: string;
  size: string;
  bytes: number;
  floorMs: number;
  who: Who;
  p50Ms: number;
  maxMs: number;
  /** Median over the repetitions of the slowest /health answer during each. */
  healthMs: number;
  healthMaxMs: number;
  refused: boolean;
  what: string;
};

export type Accepted = { name: string; ms: number[]; healthMaxMs: number; ok: boolean };

/** Warm-up (JIT, connection pool, token cache), not counted. */
export async function warmUp(url: string, validToken: string, first: Case): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await send(url, validToken, JSON.stringify({ query: '{ viewer { scopes } }' }));
    await send(url, validToken, first.body);
    await send(url, null, first.body);
  }
}

export async function measureRefusals(url: string, tokens: Record<Who, string | null>, cases: Case[]): Promise<Row[]> {
  const rows: Row[] = [];
  const probe = healthProbe(url);
  try {
    for (const c of cases) {
      for (const who of CALLERS) {
        const samples: Sample[] = [];
        const health: number[] = [];
        for (let r = 0; r < REPS; r++) {
          probe.take();
          samples.push(await send(url, tokens[who], c.body));
          await probe.caughtUp(); // a round that overlapped the request counts for it
          health.push(Math.max(0, ...probe.take()));
        }
        const ms = samples.map((s) => s.ms);
        const notRefused = samples.find((s) => !s.refused);
        rows.push({
          doc: c.doc,
          size: c.size,
          bytes: c.body.length,
          floorMs: c.floorMs,
          who,
          p50Ms: percentile(ms, 50),
          maxMs: Math.max(...ms),
          healthMs: percentile(health, 50),
          healthMaxMs: Math.max(...health),
          refused: !notRefused,
          what: (notRefused ?? samples[0]!).what,
        });
      }
    }
  } finally {
    await probe.stop();
  }
  return rows;
}

/** Not floors: what the largest documents the limits accept cost, for the record. */
export async function measureAccepted(url: string, validToken: string): Promise<Accepted[]> {
  const accepted: Accepted[] = [];
  const introspection = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
  const heavyQuery = `{ viewer { workspaces { tasks(first: 100) { edges { node { id title status events(first: 30) { edges { node { seq type occurredAt } } } } } } } } }`;
  for (const [name, query] of [
    ['full introspection (GraphiQL)', introspection],
    ['a data query near the cost limit (tasks(first:100) × events(first:30))', heavyQuery],
  ] as const) {
    const probe = healthProbe(url);
    const samples: Sample[] = [];
    for (let r = 0; r < REPS; r++) samples.push(await send(url, validToken, JSON.stringify({ query })));
    await probe.caughtUp();
    const health = probe.take();
    await probe.stop();
    accepted.push({ name, ms: samples.map((x) => x.ms), healthMaxMs: health.length ? Math.max(...health) : NaN, ok: samples.every((x) => !x.refused) });
  }
  return accepted;
}
