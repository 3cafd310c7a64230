// Object content by kind, validated with zod at every write, and the pure functions that compute
// edits and "what changed" summaries. No database here.
import { z } from 'zod';
import { canonicalJson } from './canonical-json.ts';
import { AppError, badInput, conflict, ErrorReason } from '../errors.ts';

export const OBJECT_KINDS = ['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D', 'DOCUMENT', 'COLLECTION', 'FLOW'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];
export const MEDIA_KINDS: readonly ObjectKind[] = ['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D'];

const MAX_DOC = 200_000;

export const DocumentContent = z.object({ markdown: z.string().max(MAX_DOC) }).strict();

const NodeId = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'node ids are 1-64 letters, digits, _ . : -');
export const FlowNode = z
  .object({
    id: NodeId,
    kind: z.string().min(1).max(64),
    params: z.record(z.string(), z.unknown()).default({}),
    /** Named inputs: a literal value or { node: <id> } wiring another node's output in. */
    inputs: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type FlowNode = z.output<typeof FlowNode>;
export const FlowEdge = z.object({ from: NodeId, to: NodeId, port: z.string().max(64).optional() }).strict();
export type FlowEdge = z.output<typeof FlowEdge>;
export const FlowContent = z
  .object({ nodes: z.array(FlowNode).max(500), edges: z.array(FlowEdge).max(2000).default([]) })
  .strict()
  .superRefine((f, ctx) => {
    const ids = new Set<string>();
    for (const n of f.nodes) {
      if (ids.has(n.id)) ctx.addIssue({ code: 'custom', message: `duplicate node id ${n.id}`, path: ['nodes'] });
      ids.add(n.id);
    }
    for (const e of f.edges) {
      if (!ids.has(e.from) || !ids.has(e.to)) ctx.addIssue({ code: 'custom', message: `edge ${e.from}->${e.to} references a missing node`, path: ['edges'] });
    }
  });
export type FlowContent = z.output<typeof FlowContent>;

export const CollectionContent = z
  .object({ items: z.array(z.object({ objectId: z.string().uuid(), note: z.string().max(500).optional() }).strict()).max(1000) })
  .strict();

export const MediaFile = z
  .object({
    path: z.string().min(1).max(1000),
    mime: z.string().min(1).max(200),
    bytes: z.number().int().nonnegative(),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
  })
  .strict();
export const MediaContent = z
  .object({
    file: MediaFile,
    /** Where it came from: { prompt, model/provider, jobId, taskId } for generations, or an upload. */
    provenance: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

export function contentSchema(kind: ObjectKind): z.ZodType {
  if (kind === 'DOCUMENT') return DocumentContent;
  if (kind === 'FLOW') return FlowContent;
  if (kind === 'COLLECTION') return CollectionContent;
  return MediaContent;
}

/** Validates content for a kind; bad content is BAD_USER_INPUT with the offending fields. */
export function parseContent(kind: ObjectKind, raw: unknown): Record<string, unknown> {
  const r = contentSchema(kind).safeParse(raw);
  if (r.success) return r.data as Record<string, unknown>;
  const fields = r.error.issues.map((i) => ({ path: ['content', ...i.path].join('.'), message: i.message }));
  throw new AppError('BAD_USER_INPUT', `Invalid ${kind.toLowerCase()} content: ${fields.map((f) => `${f.path}: ${f.message}`).join('; ')}`, {
    fields,
  });
}

export type Changes = {
  headings?: string[];
  nodes?: string[];
  edges?: boolean;
  items?: boolean;
  file?: boolean;
  name?: boolean;
  /** Earlier versions this version withholds (a forgotten value was removed from the work: ../services/memory/redact-works.ts). */
  withheld?: WithheldVersions;
};

/** Earlier versions of a work that readers no longer see, and why (in the words of the person who chose it). */
export type WithheldVersions = {
  versions: number[];
  reason: 'FORGOTTEN_VALUE';
  /** What a reader is told instead of the content, and the marker shown for the name. */
  message: string;
  label: string;
};

// ---- Documents -------------------------------------------------------------------------------

/** Markdown split into sections by heading ("" for text before the first heading). */
function sections(md: string): Map<string, string> {
  const out = new Map<string, string>();
  let head = '';
  let buf: string[] = [];
  const seen = new Map<string, number>();
  const flush = () => out.set(head, buf.join('\n'));
  for (const line of md.split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m) {
      flush();
      const title = m[1]!;
      const n = (seen.get(title) ?? 0) + 1;
      seen.set(title, n);
      head = n > 1 ? `${title} (${n})` : title;
      buf = [];
    } else buf.push(line);
  }
  flush();
  return out;
}

/** Which headings' sections changed, were added or removed. */
export function diffDocument(before: string, after: string): Changes {
  const a = sections(before);
  const b = sections(after);
  const changed: string[] = [];
  for (const [h, body] of b) if (a.get(h) !== body) changed.push(h || '(intro)');
  for (const h of a.keys()) if (!b.has(h)) changed.push(h || '(intro)');
  return { headings: [...new Set(changed)] };
}

export type FindReplace = { find: string; replace: string };
export type FindFailure = { index: number; find: string; matches: number };

function countMatches(text: string, find: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(find); i !== -1 && at.length < 100; i = text.indexOf(find, i + 1)) at.push(i);
  return at;
}

/**
 * Applies exact find/replace pairs to `text`: every `find` must match exactly once in `text` (the
 * current version) and no two may overlap; otherwise nothing is applied and the failures say which
 * find failed and how often it matched.
 */
export function applyFindReplace(text: string, edits: FindReplace[]): { ok: true; text: string } | { ok: false; failures: FindFailure[] } {
  const failures: FindFailure[] = [];
  const spans: { start: number; end: number; replace: string; index: number }[] = [];
  edits.forEach((e, index) => {
    const at = countMatches(text, e.find);
    if (at.length !== 1) failures.push({ index, find: e.find.slice(0, 200), matches: at.length });
    else spans.push({ start: at[0]!, end: at[0]! + e.find.length, replace: e.replace, index });
  });
  spans.sort((x, y) => x.start - y.start);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.start < spans[i - 1]!.end) failures.push({ index: spans[i]!.index, find: edits[spans[i]!.index]!.find.slice(0, 200), matches: 1 });
  }
  if (failures.length) return { ok: false, failures };
  let out = '';
  let pos = 0;
  for (const s of spans) {
    out += text.slice(pos, s.start) + s.replace;
    pos = s.end;
  }
  return { ok: true, text: out + text.slice(pos) };
}

// ---- Flows -----------------------------------------------------------------------------------

export type NodeVersions = Record<string, number>;

const nodeJson = (n: FlowNode) => canonicalJson(n);

/** Nodes added, removed or changed between two flows, and whether the edges changed. */
export function diffFlow(before: FlowContent, after: FlowContent): Changes {
  const a = new Map(before.nodes.map((n) => [n.id, nodeJson(n)]));
  const b = new Map(after.nodes.map((n) => [n.id, nodeJson(n)]));
  const nodes: string[] = [];
  for (const [id, j] of b) if (a.get(id) !== j) nodes.push(id);
  for (const id of a.keys()) if (!b.has(id)) nodes.push(id);
  return { nodes, edges: canonicalJson(before.edges) !== canonicalJson(after.edges) };
}

/** Per-node versions after a write producing `version`: changed or new nodes get `version`. */
export function nextNodeVersions(prev: NodeVersions, before: FlowContent | null, after: FlowContent, version: number): NodeVersions {
  const old = new Map((before?.nodes ?? []).map((n) => [n.id, nodeJson(n)]));
  const out: NodeVersions = {};
  for (const n of after.nodes) out[n.id] = old.get(n.id) === nodeJson(n) ? (prev[n.id] ?? version) : version;
  return out;
}

export const FlowOp = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('add_node'),
    node: FlowNode,
  }),
  z.object({
    op: z.literal('update_node'),
    nodeId: NodeId,
    /** The object version the editor read this node at. */
    baseVersion: z.number().int().positive().optional(),
    kind: z.string().min(1).max(64).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    inputs: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({ op: z.literal('remove_node'), nodeId: NodeId, baseVersion: z.number().int().positive().optional() }),
  z.object({ op: z.literal('add_edge'), edge: FlowEdge }),
  z.object({ op: z.literal('remove_edge'), edge: FlowEdge }),
]);
export type FlowOp = z.output<typeof FlowOp>;

export type NodeConflict = { nodeId: string; baseVersion: number; changedInVersion: number | null; reason: string };

/**
 * Applies node operations to the current flow. A node op conflicts only when that node changed
 * after the op's base version (or, for add_node, when the id already exists); edits to other nodes
 * are fine. All or nothing: any conflict refuses the whole edit (CONFLICT, with every conflicting
 * node), so an edit is never half-applied. Returns the new flow and the nodes others changed since
 * the base (for the notice in the result).
 */
export function applyFlowOps(
  current: FlowContent,
  nodeVersions: NodeVersions,
  currentVersion: number,
  ops: FlowOp[],
  defaultBase: number | undefined,
): { flow: FlowContent; changedByOthers: string[] } {
  const nodes = new Map(current.nodes.map((n) => [n.id, n]));
  let edges = [...current.edges];
  const conflicts: NodeConflict[] = [];
  const touched = new Set<string>();
  let minBase = Infinity;
  // Checked for the edit as a whole, not only where an op uses it: an edit of only added nodes
  // would otherwise record a base version that never existed.
  if (defaultBase !== undefined && defaultBase > currentVersion) {
    throw badInput(`baseVersion ${defaultBase} is newer than the current version ${currentVersion}`);
  }
  for (const op of ops) {
    if (op.op === 'add_node') {
      if (nodes.has(op.node.id)) {
        conflicts.push({ nodeId: op.node.id, baseVersion: defaultBase ?? currentVersion, changedInVersion: nodeVersions[op.node.id] ?? null, reason: 'a node with this id exists' });
        continue;
      }
      nodes.set(op.node.id, op.node);
      touched.add(op.node.id);
    } else if (op.op === 'update_node' || op.op === 'remove_node') {
      const base = op.baseVersion ?? defaultBase;
      if (base === undefined) throw badInput(`${op.op} ${op.nodeId}: baseVersion is required (per op or for the edit)`, { nodeId: op.nodeId });
      if (base > currentVersion) throw badInput(`baseVersion ${base} is newer than the current version ${currentVersion}`, { nodeId: op.nodeId });
      minBase = Math.min(minBase, base);
      const node = nodes.get(op.nodeId);
      const changedIn = nodeVersions[op.nodeId] ?? null;
      if (!node) {
        conflicts.push({ nodeId: op.nodeId, baseVersion: base, changedInVersion: changedIn, reason: 'the node no longer exists' });
        continue;
      }
      if (changedIn !== null && changedIn > base) {
        conflicts.push({ nodeId: op.nodeId, baseVersion: base, changedInVersion: changedIn, reason: 'the node changed since the base version' });
        continue;
      }
      touched.add(op.nodeId);
      if (op.op === 'remove_node') {
        nodes.delete(op.nodeId);
        edges = edges.filter((e) => e.from !== op.nodeId && e.to !== op.nodeId);
      } else {
        nodes.set(op.nodeId, {
          ...node,
          ...(op.kind !== undefined ? { kind: op.kind } : {}),
          ...(op.params !== undefined ? { params: op.params } : {}),
          ...(op.inputs !== undefined ? { inputs: op.inputs } : {}),
        });
      }
    } else if (op.op === 'add_edge') {
      if (!edges.some((e) => canonicalJson(e) === canonicalJson(op.edge))) edges.push(op.edge);
    } else {
      edges = edges.filter((e) => !(e.from === op.edge.from && e.to === op.edge.to && (e.port ?? null) === (op.edge.port ?? null)));
    }
  }
  if (conflicts.length) {
    throw conflict(`Flow edit refused: ${conflicts.map((c) => `node ${c.nodeId} (${c.reason})`).join('; ')}. Re-read the flow and retry.`, {
      reason: ErrorReason.NODE_CONFLICT,
      currentVersion,
      conflicts,
    });
  }
  const flow = FlowContent.safeParse({ nodes: [...nodes.values()], edges });
  if (!flow.success) throw badInput(`Invalid flow after the edit: ${flow.error.issues.map((i) => i.message).join('; ')}`);
  const base = Number.isFinite(minBase) ? minBase : (defaultBase ?? currentVersion);
  const changedByOthers = Object.entries(nodeVersions)
    .filter(([id, v]) => v > base && !touched.has(id))
    .map(([id]) => id);
  return { flow: flow.data, changedByOthers };
}

// ---- Summaries -------------------------------------------------------------------------------

export function describeChanges(kind: ObjectKind, changes: Changes): string {
  const parts: string[] = [];
  if (changes.name) parts.push('renamed');
  if (kind === 'DOCUMENT' && changes.headings?.length) parts.push(`changed sections: ${changes.headings.slice(0, 8).join(', ')}${changes.headings.length > 8 ? ', …' : ''}`);
  if (kind === 'FLOW' && changes.nodes?.length) parts.push(`changed nodes: ${changes.nodes.slice(0, 12).join(', ')}${changes.nodes.length > 12 ? ', …' : ''}`);
  if (kind === 'FLOW' && changes.edges) parts.push('edges changed');
  if (changes.items) parts.push('items changed');
  if (changes.file) parts.push('file replaced');
  return parts.join('; ') || 'no visible change';
}

export function diffContent(kind: ObjectKind, before: unknown, after: unknown): Changes {
  if (kind === 'DOCUMENT') return diffDocument((before as { markdown: string }).markdown, (after as { markdown: string }).markdown);
  if (kind === 'FLOW') return diffFlow(before as FlowContent, after as FlowContent);
  if (kind === 'COLLECTION') return { items: canonicalJson(before) !== canonicalJson(after) };
  return { file: canonicalJson((before as { file: unknown }).file) !== canonicalJson((after as { file: unknown }).file) };
}
