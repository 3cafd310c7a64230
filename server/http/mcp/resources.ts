// Read-only resources: tasks (atelier://tasks/{id}) and workspace objects (atelier://objects/{id}),
// listed and read through the same services and permissions as the tools; ids are global ids.
import type { ListResourcesResult, ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { defaultWorkspaceId, requireWorkspace } from '../../auth/access.ts';
import { withFileNames } from '../../domain/file-names.ts';
import { badInput, notFound } from '../../errors.ts';
import { listWorkspaceObjects } from '../../services/objects/list-objects.ts';
import { loadObjects } from '../../services/objects/load-objects.ts';
import { loadObjectVersions } from '../../services/objects/object-versions.ts';
import { listTasks } from '../../services/tasks/list-tasks.ts';
import { globalId, parseGlobalId } from '../../graphql/ids.ts';
import { publicJson } from '../../graphql/public-ids.ts';
import { resultsOf, taskOut, type McpCall } from './task-view.ts';

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'atelier://tasks/{taskId}',
    name: 'task',
    title: 'Task',
    description: 'A task (global id): status in words, checklist, pending cards and results with signed file URLs, as JSON.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'atelier://objects/{objectId}',
    name: 'object',
    title: 'Workspace object',
    description: 'A workspace object (global id): its current version — a document as Markdown, media with a signed file URL — as JSON.',
    mimeType: 'application/json',
  },
];

const PAGE = 50;

/** Recent tasks, then recently changed objects; the cursor is the offset into that list. */
export async function listResources(call: McpCall, cursor?: string): Promise<ListResourcesResult> {
  const workspaceId = defaultWorkspaceId(call.viewer);
  requireWorkspace(call.viewer, workspaceId, 'read');
  const offset = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(offset) || offset < 0 || offset > 100_000) throw badInput('The cursor is not one this server gave');
  // Tasks are keyset-paged by the service; the few recent ones listed here come first.
  const tasks = offset === 0 ? await listTasks(call.deps, call.viewer, workspaceId, { limit: PAGE, inverted: false }) : [];
  const objects = await listWorkspaceObjects(call.deps, call.viewer, { workspaceId, limit: PAGE + 1, offset });
  return {
    resources: [
      ...tasks.map((t) => ({
        uri: `atelier://tasks/${globalId('Task', t.id)}`,
        name: t.title,
        title: `Task: ${t.title}`,
        description: `Task, ${t.status.toLowerCase()}`,
        mimeType: 'application/json',
      })),
      ...objects.slice(0, PAGE).map((o) => ({
        uri: `atelier://objects/${globalId('WorkspaceObject', o.id)}`,
        name: o.name,
        title: o.name,
        description: `${o.kind.toLowerCase()} object, version ${o.currentVersion}`,
        mimeType: 'application/json',
      })),
    ],
    ...(objects.length > PAGE ? { nextCursor: String(offset + PAGE) } : {}),
  };
}

export async function readResource(call: McpCall, uri: string): Promise<ReadResourceResult> {
  const m = /^atelier:\/\/(tasks|objects)\/([^/?#]+)$/.exec(uri);
  if (!m) throw notFound('Resource');
  const id = decodeURIComponent(m[2]!);
  if (m[1] === 'tasks') {
    const task = await taskOut(call, parseGlobalId(id, 'Task', 'uri'));
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(task) }] };
  }
  const objectId = parseGlobalId(id, 'WorkspaceObject', 'uri');
  const [object] = await loadObjects(call.deps, call.viewer, [objectId]);
  if (!object) throw notFound('WorkspaceObject');
  const [version] = await loadObjectVersions(call.deps, call.viewer, [{ objectId, version: object.currentVersion }]);
  const [result] = await resultsOf(call, [objectId]);
  const content = publicJson(withFileNames((version?.content ?? {}) as Record<string, unknown>));
  const body = { ...result, content, updatedAt: object.updatedAt.toISOString(), deletedAt: object.deletedAt?.toISOString() ?? null };
  const markdown = typeof content.markdown === 'string' ? content.markdown : null;
  return {
    contents: [
      { uri, mimeType: 'application/json', text: JSON.stringify(body) },
      ...(markdown !== null ? [{ uri, mimeType: 'text/markdown', text: markdown }] : []),
    ],
  };
}
