// Shared-workspace tools: the agent reads and edits the same objects people edit. Reads record the
// version the task saw (so it gets change notices later). Writes are optimistic: a stale base is
// refused, and the refusal comes back as the tool's RESULT ({ ok: false, error }) rather than a
// failure, so the model sees the current version and can re-read and retry. Writes are idempotent
// by the call's key (stored on the version row, unique per object): a replayed call returns the
// version it wrote instead of writing a second one.
import { z } from 'zod';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { isAppError } from '../../errors.ts';
import { withFileNames } from '../../domain/file-names.ts';
import { FlowEdge, FlowNode, FlowOp } from '../../domain/object-content.ts';
import { createObjectOp, editDocumentOp, editFlowOp, readObjectOp, updateObjectOp } from '../../store/objects/operations.ts';
import type { ObjectActor, WriteResult } from '../../store/objects/store.ts';
import { defineTool, type ToolContext, type ToolDef } from './types.ts';
import { linkDocumentToStep } from '../../store/checklist/link-document.ts';

const Result = z.looseObject({ ok: z.boolean() });
type Result = z.input<typeof Result>;

const agent = (ctx: ToolContext): ObjectActor => ({ kind: 'AGENT', taskId: ctx.taskId });

/** Expected refusals (conflict, bad input, not found) are results the model can act on. */
async function guarded(fn: () => Promise<Result>): Promise<Result> {
  try {
    return await fn();
  } catch (e) {
    if (isAppError(e) && ['CONFLICT', 'BAD_USER_INPUT', 'NOT_FOUND', 'FORBIDDEN'].includes(e.code)) {
      return {
        ok: false,
        error: { code: e.code, message: e.message, ...(e.details ?? {}) },
        ...(e.code === 'CONFLICT' ? { hint: 'Call read_object to get the current version, then apply your change to it.' } : {}),
      };
    }
    throw e;
  }
}

function written(r: WriteResult): Result {
  return {
    ok: true,
    objectId: r.object.id,
    kind: r.object.kind,
    version: r.version,
    summary: r.summary,
    ...(r.replayed ? { replayed: true } : {}),
    ...(r.changedByOthers?.length
      ? { notice: `Applied to version ${r.fromVersion}; since your base, others changed nodes: ${r.changedByOthers.join(', ')}` }
      : {}),
  };
}

const write = (ctx: ToolContext, fn: Parameters<typeof transactWithEvents<WriteResult>>[1]) =>
  guarded(async () => written((await transactWithEvents(ctx.uow, fn)).value));

export const readObject = defineTool({
  name: 'read_object',
  domain: 'core',
  description:
    'Read a workspace object (document, flow, collection, image, …): its current version (or a given one) and content. ' +
    'For a large flow, pass `nodes` to read only those nodes. Always read before editing; use the returned version as baseVersion.',
  input: z.object({
    objectId: z.string().uuid(),
    version: z.number().int().positive().optional(),
    nodes: z.array(z.string()).max(100).optional(),
  }),
  output: Result,
  safety: 'READ_ONLY',
  async run(input, ctx) {
    return guarded(async () => {
      const { object, version } = await readObjectOp(ctx.uow.prisma, { workspaceId: ctx.workspaceId, objectId: input.objectId, version: input.version, taskId: ctx.taskId });
      // A media file by its name: the server's file paths are not the model's (nor its provider's) business.
      let content = withFileNames(version.content as Record<string, unknown>);
      if (object.kind === 'FLOW') {
        const flow = content as { nodes: { id: string }[]; edges: unknown[] };
        const nodeVersions = (version.nodeVersions ?? {}) as Record<string, number>;
        const pick = input.nodes ? flow.nodes.filter((n) => input.nodes!.includes(n.id)) : flow.nodes;
        content = { nodes: pick.map((n) => ({ ...n, version: nodeVersions[n.id] })), ...(input.nodes ? { allNodeIds: flow.nodes.map((n) => n.id) } : { edges: flow.edges }) };
      }
      return {
        ok: true,
        objectId: object.id,
        kind: object.kind,
        name: version.name,
        version: version.version,
        currentVersion: object.currentVersion,
        deleted: object.deletedAt !== null,
        content,
      };
    });
  },
});

export const createDocument = defineTool({
  name: 'create_document',
  domain: 'documents',
  description:
    'Create a Markdown document (storyboard, brief, script, character sheet) in the shared workspace. Returns its id and version 1. ' +
    'With checklistItemId, the document is that step\'s result: steps after it are made from it, and a person\'s later edit of it marks them stale.',
  input: z.object({ name: z.string().min(1).max(200), markdown: z.string().max(200_000), checklistItemId: z.string().min(1).max(40).optional() }),
  output: Result,
  safety: 'IDEMPOTENT',
  run: (input, ctx) =>
    write(ctx, async (tx, emit) => {
      const created = await createObjectOp(tx, emit, { workspaceId: ctx.workspaceId, kind: 'DOCUMENT', name: input.name, content: { markdown: input.markdown }, actor: agent(ctx), idempotencyKey: ctx.idempotencyKey });
      // In the same transaction: the document and the step it is the result of commit together.
      if (input.checklistItemId && !created.replayed) await linkDocumentToStep(tx, emit, ctx.taskId, input.checklistItemId, created.object.id);
      return created;
    }),
});

export const createFlow = defineTool({
  name: 'create_flow',
  domain: 'flows',
  description: 'Create a flow: a typed node graph (nodes with id, kind, params, inputs; edges from→to).',
  input: z.object({ name: z.string().min(1).max(200), nodes: z.array(FlowNode).max(500), edges: z.array(FlowEdge).max(2000).default([]) }),
  output: Result,
  safety: 'IDEMPOTENT',
  run: (input, ctx) =>
    write(ctx, (tx, emit) =>
      createObjectOp(tx, emit, {
        workspaceId: ctx.workspaceId,
        kind: 'FLOW',
        name: input.name,
        content: { nodes: input.nodes, edges: input.edges },
        actor: agent(ctx),
        idempotencyKey: ctx.idempotencyKey,
      }),
    ),
});

export const createCollection = defineTool({
  name: 'create_collection',
  domain: 'core',
  description: 'Create a collection: an ordered list of references to other objects (no copies).',
  input: z.object({ name: z.string().min(1).max(200), objectIds: z.array(z.string().uuid()).max(1000) }),
  output: Result,
  safety: 'IDEMPOTENT',
  run: (input, ctx) =>
    write(ctx, (tx, emit) =>
      createObjectOp(tx, emit, {
        workspaceId: ctx.workspaceId,
        kind: 'COLLECTION',
        name: input.name,
        content: { items: input.objectIds.map((objectId) => ({ objectId })) },
        actor: agent(ctx),
        idempotencyKey: ctx.idempotencyKey,
      }),
    ),
});

export const writeObject = defineTool({
  name: 'write_object',
  domain: 'core',
  description:
    'Replace an object\'s whole content. baseVersion must be the version you read; if someone changed it since, the write is refused ' +
    'with the current version (re-read and retry). Content by kind: document { markdown }, flow { nodes, edges }, collection { items: [{ objectId }] }.',
  input: z.object({
    objectId: z.string().uuid(),
    baseVersion: z.number().int().positive(),
    content: z.record(z.string(), z.unknown()),
    name: z.string().min(1).max(200).optional(),
  }),
  output: Result,
  safety: 'IDEMPOTENT',
  run: (input, ctx) =>
    write(ctx, (tx, emit) =>
      updateObjectOp(tx, emit, { workspaceId: ctx.workspaceId, ...input, actor: agent(ctx), idempotencyKey: ctx.idempotencyKey }),
    ),
});

export const editDocument = defineTool({
  name: 'edit_document',
  domain: 'documents',
  description:
    'Edit a document with exact find/replace pairs. Each `find` must occur exactly once in the current version (quote enough text to be unique); ' +
    'otherwise nothing is changed and the result says which find failed and how often it matched.',
  input: z.object({
    objectId: z.string().uuid(),
    baseVersion: z.number().int().positive().optional(),
    edits: z.array(z.object({ find: z.string().min(1), replace: z.string() })).min(1).max(50),
  }),
  output: Result,
  safety: 'IDEMPOTENT',
  run: (input, ctx) =>
    write(ctx, (tx, emit) =>
      editDocumentOp(tx, emit, { workspaceId: ctx.workspaceId, ...input, actor: agent(ctx), idempotencyKey: ctx.idempotencyKey }),
    ),
});

export const editFlow = defineTool({
  name: 'edit_flow',
  domain: 'flows',
  description:
    'Edit a flow with node operations (add_node, update_node, remove_node, add_edge, remove_edge). Give the version you read as baseVersion ' +
    '(per op or for the edit): an op is refused only if its node changed since; changes by others to other nodes are kept and reported.',
  input: z.object({ objectId: z.string().uuid(), baseVersion: z.number().int().positive().optional(), ops: z.array(FlowOp).min(1).max(100) }),
  output: Result,
  safety: 'IDEMPOTENT',
  run: (input, ctx) =>
    write(ctx, (tx, emit) => editFlowOp(tx, emit, { workspaceId: ctx.workspaceId, ...input, actor: agent(ctx), idempotencyKey: ctx.idempotencyKey })),
});

export const objectTools: ToolDef[] = [readObject, createDocument, createFlow, createCollection, writeObject, editDocument, editFlow];
