// A task as the MCP tools, tasks and resources show it: status in plain words (what it does, what it
// waits for), its checklist, the cards waiting for a person, and its results with signed file URLs.
// Every read goes through the services with the caller's viewer, so a task of another workspace is
// NOT_FOUND here exactly as in GraphQL.
import { textsFor } from '../../domain/replies/texts.ts';
import { z } from 'zod';
import type { Task } from '../../db/generated/client.ts';
import { signFileUrl, FILE_NAME } from '../../auth/file-urls.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { fileNameOf } from '../../domain/file-names.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { listApprovals } from '../../services/approvals/list-approvals.ts';
import { getTaskChecklist } from '../../services/checklist/read-checklist.ts';
import type { Deps } from '../../services/deps.ts';
import { loadObjectIdsOfTasks } from '../../services/objects/list-objects.ts';
import { loadObjects } from '../../services/objects/load-objects.ts';
import { loadObjectVersions } from '../../services/objects/object-versions.ts';
import { getTask } from '../../services/tasks/get-task.ts';
import { globalId } from '../../graphql/ids.ts';
import { publicText } from '../../graphql/public-ids.ts';

/** What every tool, resource and task handler of one request works with. */
export type McpCall = { deps: Deps; viewer: Viewer; /** Base of absolute URLs (ATELIER_PUBLIC_URL, else the request's origin). */ publicUrl: string };

export const TaskStatusWord = z.enum(['QUEUED', 'RUNNING', 'WAITING', 'PAUSED', 'COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED']);

export const FileOut = z.object({
  name: z.string().describe('The file name (what GET /files/<name> takes).'),
  mime: z.string(),
  bytes: z.number().int(),
  url: z.string().nullable().describe('A signed absolute URL that downloads the file without a token until urlExpiresAt.'),
  urlExpiresAt: z.string().nullable(),
});

export const ResultOut = z.object({
  objectId: z.string().describe('The workspace object (global id); read it as the resource atelier://objects/{id}.'),
  kind: z.string(),
  title: z.string(),
  version: z.number().int(),
  file: FileOut.nullable().describe('The media file of the current version; null for documents, flows and collections.'),
});

export const CardOut = z.object({
  id: z.string().describe('The approval (global id).'),
  taskId: z.string().nullable(),
  kind: z.string(),
  title: z.string(),
  quoteCents: z.number().int().nullable(),
  options: z.array(z.object({ id: z.string(), label: z.string() })).describe('What a person can pick from (checkpoints and questions); empty for yes/no cards.'),
  createdAt: z.string(),
});

export const TaskOut = z.object({
  id: z.string().describe('The task (global id). It is also the MCP task id when the task was started as an MCP task.'),
  title: z.string(),
  goal: z.string(),
  status: TaskStatusWord,
  statusText: z.string().describe('Where the task is, in plain words: what it does or waits for.'),
  isTerminal: z.boolean(),
  summary: z.string().describe('What was delivered, in words (empty before).'),
  checklist: z
    .object({
      version: z.number().int(),
      done: z.number().int(),
      total: z.number().int(),
      items: z.array(z.object({ id: z.string(), title: z.string(), status: z.string() })),
    })
    .nullable(),
  pendingCards: z.array(CardOut).describe('Approvals waiting for a person; they are answered in the Atelier studio, not through MCP.'),
  results: z.array(ResultOut),
  lastEventSeq: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  endedAt: z.string().nullable(),
});
export type TaskOut = z.infer<typeof TaskOut>;
export type CardOut = z.infer<typeof CardOut>;

type ApprovalRow = Awaited<ReturnType<typeof listApprovals>>[number];

export function cardOut(a: ApprovalRow): CardOut {
  const options = Array.isArray(a.options) ? (a.options as { id?: unknown; label?: unknown }[]) : [];
  return {
    id: globalId('Approval', a.id),
    taskId: a.taskId ? globalId('Task', a.taskId) : null,
    kind: a.kind,
    title: publicText(a.title),
    quoteCents: a.quoteCents,
    options: options.filter((o) => typeof o?.id === 'string').map((o) => ({ id: String(o.id), label: publicText(String(o.label ?? o.id)) })),
    createdAt: a.createdAt.toISOString(),
  };
}

/**
 * The status in plain words, in the task's language (the language of the person's own words), in
 * the order a person following the work asks: paused? my turn? working?
 */
export function statusText(task: Pick<Task, 'status' | 'statusReason' | 'language'>, pending: readonly { title: string }[]): string {
  const t = textsFor(task.language).taskState;
  const reason = task.statusReason ? publicText(task.statusReason) : null;
  switch (task.status) {
    case 'PAUSED':
      return t.paused(reason);
    case 'COMPLETED':
      return t.completed;
    case 'CANCELLED':
      return t.cancelled(reason);
    case 'FAILED':
      return t.failed(reason);
    case 'BUDGET_EXCEEDED':
      return t.budgetExceeded;
  }
  if (pending.length) return t.needsPerson(publicText(pending[0]!.title));
  if (task.status === 'WAITING') return t.waiting(reason);
  if (task.status === 'RUNNING') return t.working;
  return t.queued;
}

/** A file's signed URL, made as the GraphQL file fields make it (graphql/file-link.ts). */
export function fileOut(call: McpCall, workspaceId: string, file: { path: string; mime: string; bytes: number }): z.infer<typeof FileOut> {
  const name = fileNameOf(file.path);
  const secret = call.deps.config.files?.urlSecret;
  let url: string | null = null;
  let urlExpiresAt: string | null = null;
  if (secret && FILE_NAME.test(name)) {
    const signed = signFileUrl({ secret, ttlSeconds: call.deps.config.files?.urlTtlSeconds ?? 900 }, { workspaceId, name });
    url = `${call.publicUrl}${signed.path}`;
    urlExpiresAt = signed.expiresAt.toISOString();
  }
  return { name, mime: file.mime, bytes: file.bytes, url, urlExpiresAt };
}

/** Workspace objects as results: kind, title, current version and its file (signed URL). */
export async function resultsOf(call: McpCall, objectIds: readonly string[]): Promise<z.infer<typeof ResultOut>[]> {
  const objects = (await loadObjects(call.deps, call.viewer, objectIds)).filter((o) => o !== null);
  const versions = await loadObjectVersions(call.deps, call.viewer, objects.map((o) => ({ objectId: o.id, version: o.currentVersion })));
  return objects.map((o, i) => {
    const content = (versions[i]?.content ?? {}) as { file?: { path?: unknown; mime?: unknown; bytes?: unknown } };
    const f = content.file;
    const file =
      f && typeof f.path === 'string' ? fileOut(call, o.workspaceId, { path: f.path, mime: String(f.mime ?? ''), bytes: Number(f.bytes ?? 0) }) : null;
    return { objectId: globalId('WorkspaceObject', o.id), kind: o.kind, title: o.name, version: o.currentVersion, file };
  });
}

export async function pendingCardsOf(call: McpCall, task: Pick<Task, 'id' | 'workspaceId'>): Promise<ApprovalRow[]> {
  return listApprovals(call.deps, call.viewer, { workspaceId: task.workspaceId, taskId: task.id, statuses: ['PENDING'] }, { limit: 20, inverted: false });
}

/** The task (raw id), loaded for reading with the caller's viewer, as the tools show it. */
export async function taskOut(call: McpCall, taskId: string): Promise<TaskOut> {
  const task = await getTask(call.deps, call.viewer, taskId);
  return presentTask(call, task);
}

export async function presentTask(call: McpCall, task: Task): Promise<TaskOut> {
  const [checklist, pending, [objectIds]] = await Promise.all([
    getTaskChecklist(call.deps, call.viewer, task),
    pendingCardsOf(call, task),
    loadObjectIdsOfTasks(call.deps, call.viewer, [task.id]),
  ]);
  const results = await resultsOf(call, objectIds ?? []);
  const items = checklist?.items ?? [];
  return {
    id: globalId('Task', task.id),
    title: task.title,
    goal: task.goal,
    status: task.status,
    statusText: statusText(task, pending),
    isTerminal: isTerminal(task.status),
    summary: publicText(task.summary),
    checklist: checklist
      ? {
          version: checklist.version,
          done: items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').length,
          total: items.length,
          items: items.map((i) => ({ id: i.id, title: publicText(i.title), status: i.status })),
        }
      : null,
    pendingCards: pending.map(cardOut),
    results,
    lastEventSeq: task.lastEventSeq,
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
    endedAt: task.endedAt?.toISOString() ?? null,
  };
}
