// bench:workspace's judgement, as pure functions over what the run collected (test/bench-anomaly.test.ts
// feeds them planted anomalies). Invariants, per case run (one object each): no write failed other
// than with a conflict; the object's versions are exactly 1..1 + accepted (no lost or doubled write,
// no gap), each once in the change feed; the content is what the accepted writes made it (document:
// each editor's counter = its accepted edits; flow: each node holds one of the writes accepted for
// it, the last one when a single editor owns the node). Gates: accepted edits/s of the concurrent
// cases against the warm single-editor baseline of their family (medians of interleaved rounds).
import { median, type Gate } from '../verdict.ts';

export type CaseKind = 'doc-base' | 'doc-own' | 'doc-rewrite' | 'flow-base' | 'flow-own' | 'flow-shared';
export type NodeWrite = { v: number; by: number };

export type CaseRun = {
  kind: CaseKind;
  round: number;
  editors: number;
  attempts: number;
  accepted: number;
  ms: number;
  /** Errors other than a conflict (each one is a bug). */
  errors: string[];
  /** Versions of the object (object_versions), its current_version, and the versions in the change feed. */
  versions: number[];
  currentVersion: number;
  feedVersions: number[];
  /** Documents (find/replace on own lines): accepted edits per editor, and the counters in the final text. */
  acceptedByEditor?: number[];
  finalCounters?: number[];
  /** Flows: the writes accepted per node, in acceptance order, and each node's final params. */
  acceptedByNode?: Record<string, NodeWrite[]>;
  finalNodes?: Record<string, NodeWrite | null>;
};

export const CASES: Record<CaseKind, { name: string; baseline: CaseKind | null }> = {
  'doc-base': { name: 'document find/replace, 1 editor (baseline)', baseline: null },
  'doc-own': { name: 'document find/replace, 20 editors, own sections', baseline: 'doc-base' },
  'doc-rewrite': { name: 'document full rewrite, 20 editors', baseline: 'doc-base' },
  'flow-base': { name: 'flow node edit, 1 editor (baseline)', baseline: null },
  'flow-own': { name: 'flow node edit, 20 editors, disjoint nodes', baseline: 'flow-base' },
  'flow-shared': { name: 'flow node edit, 20 editors, 3 shared nodes', baseline: 'flow-base' },
};

/** Floors on accepted/s ÷ the warm single-editor baseline (the contended cases refuse most writes by design). */
export const FLOORS: Partial<Record<CaseKind, number>> = { 'doc-own': 0.4, 'flow-own': 0.4, 'doc-rewrite': 0.02, 'flow-shared': 0.05 };

export function checkWorkspace(runs: CaseRun[]): string[] {
  const v: string[] = [];
  for (const r of runs) {
    const at = `${r.kind} round ${r.round}`;
    for (const e of r.errors.slice(0, 3)) v.push(`${at}: write failed: ${e}`);
    if (r.errors.length > 3) v.push(`${at}: … ${r.errors.length - 3} more failed writes`);
    const want = 1 + r.accepted;
    const distinct = new Set(r.versions);
    if (distinct.size !== r.versions.length) v.push(`${at}: ${r.versions.length - distinct.size} duplicated versions`);
    if (Math.max(0, ...r.versions) !== distinct.size) v.push(`${at}: versions up to ${Math.max(0, ...r.versions)} but ${distinct.size} distinct (gap)`);
    if (distinct.size !== want || r.currentVersion !== want) v.push(`${at}: ${distinct.size} versions (current ${r.currentVersion}) for ${r.accepted} accepted writes (expected ${want}: a lost or doubled write)`);
    const feed = new Map<number, number>();
    for (const x of r.feedVersions) feed.set(x, (feed.get(x) ?? 0) + 1);
    const notOnce = r.versions.filter((x) => feed.get(x) !== 1).length + [...feed.keys()].filter((x) => !distinct.has(x)).length;
    if (notOnce) v.push(`${at}: ${notOnce} versions not exactly once in the change feed`);
    if (r.acceptedByEditor && r.finalCounters) {
      const wrong = r.acceptedByEditor.filter((n, e) => r.finalCounters![e] !== n).length;
      if (wrong) v.push(`${at}: ${wrong} editors' counters differ from their accepted edits (lost or doubled update)`);
    }
    if (r.acceptedByNode && r.finalNodes) {
      for (const [node, writes] of Object.entries(r.acceptedByNode)) {
        const final = r.finalNodes[node] ?? null;
        if (!writes.length) continue;
        const byOne = new Set(writes.map((w) => w.by)).size === 1;
        const expected = byOne ? [writes.at(-1)!] : writes;
        if (!final || !expected.some((w) => w.v === final.v && w.by === final.by)) {
          v.push(`${at}: node ${node} holds ${JSON.stringify(final)}, not ${byOne ? 'its last accepted write' : 'one of its accepted writes'}`);
        }
      }
    }
  }
  return v;
}

export const perSec = (r: CaseRun) => (r.accepted / r.ms) * 1000;

export function workspaceFigures(runs: CaseRun[]) {
  const kinds = Object.keys(CASES) as CaseKind[];
  const rate = (k: CaseKind) => median(runs.filter((r) => r.kind === k).map(perSec));
  return kinds.map((k) => {
    const rs = runs.filter((r) => r.kind === k);
    const base = CASES[k].baseline;
    const attempts = rs.reduce((n, r) => n + r.attempts, 0);
    const accepted = rs.reduce((n, r) => n + r.accepted, 0);
    return { kind: k, name: CASES[k].name, rounds: rs.length, attempts, accepted, perSec: rate(k), ratio: base ? rate(k) / rate(base) : 1, conflictRate: attempts ? (attempts - accepted) / attempts : 0 };
  });
}

export function workspaceGates(runs: CaseRun[]): Gate[] {
  return workspaceFigures(runs)
    .filter((f) => FLOORS[f.kind] !== undefined)
    .map((f) => ({ name: `${f.name}: accepted/s ÷ warm single editor`, value: f.ratio, min: FLOORS[f.kind]! }));
}

export function plantWorkspace(runs: CaseRun[], kind: string): CaseRun[] {
  const x = structuredClone(runs);
  const doc = x.find((r) => r.kind === 'doc-own' && r.finalCounters?.length);
  const any = x.find((r) => r.versions.length > 1);
  if (kind === 'lost-update' && doc) doc.finalCounters![0]! -= 1;
  else if (kind === 'duplicate' && any) any.versions.push(any.versions.at(-1)!);
  else if (kind === 'gap' && any) any.versions.splice(0, 1);
  else throw new Error(`bench:workspace cannot plant "${kind}" (lost-update, duplicate, gap)`);
  return x;
}
