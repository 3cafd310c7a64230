// Per-request batch loaders (no N+1): each field of a list asks for its row and the loader answers
// all of them with one query, cached for the rest of the request. Built once per request (HTTP,
// SSE) or per operation (graphql-ws) by the context factory, so node resolution, nested fields,
// mutation payloads and the live-feed resolvers share one cache. The batches are services that
// apply the viewer's visibility: an id of another workspace loads as null, so node(id) and nested
// fields cannot leak across workspaces.
import DataLoader from 'dataloader';
import type { Viewer } from '../auth/viewer.ts';
import { loadEventPayloads } from '../services/events/load-payloads.ts';
import { loadDataKeys, loadTasksWithheld } from '../services/events/data-keys.ts';
import type { Deps } from '../services/deps.ts';
import { loadJobs } from '../services/generation/list-task-jobs.ts';
import { loadMemoryUses, loadMemoryVersions } from '../services/memory/memory-history.ts';
import { loadCardsOfMessages, loadDeliveries, loadRoutesOfMessages } from '../services/messages/message-details.ts';
import { loadObjectIdsOfTasks, loadTaskIdsOfObjects } from '../services/objects/list-objects.ts';
import { loadObjects } from '../services/objects/load-objects.ts';
import { loadDependents, loadDerivedFrom } from '../services/objects/derivations.ts';
import { loadObjectVersions, type VersionKey } from '../services/objects/object-versions.ts';
import { loadTasks } from '../services/tasks/load-tasks.ts';
import { loadLineRounds } from '../services/tasks/task-line.ts';
import { loadInboxOfTasks, loadTurnsOfTasks } from '../services/tasks/task-journal.ts';
import { loadMessages, loadThreads } from '../services/threads/load-threads.ts';
import { loadUsers } from '../services/users/load-users.ts';
import { loadWorkspaces } from '../services/workspaces/load-workspaces.ts';
import { loadAgentPrincipals } from '../services/agents/list-agents.ts';
import { loadRecentRuns } from '../services/schedules/list-schedules.ts';
import { loadFollowUpsOfTasks } from '../services/follow-ups/list-follow-ups.ts';

export function createLoaders(deps: Deps, viewer: Viewer) {
  type Batch<K, V> = (deps: Deps, viewer: Viewer, keys: readonly K[]) => Promise<V[]>;
  const loader = <K, V>(batch: Batch<K, V>, options?: DataLoader.Options<K, V, string>) =>
    new DataLoader<K, V, string>((keys) => batch(deps, viewer, keys), options);
  return {
    workspace: loader(loadWorkspaces),
    task: loader(loadTasks),
    /** The rounds of a line of work by the line's id (its first round's), first to latest. */
    lineRounds: loader(loadLineRounds),
    /** Generation jobs of visible workspaces. */
    job: loader(loadJobs),
    /** Shared workspace objects (deleted ones too: their history stays readable). */
    object: loader(loadObjects),
    /** What an object's versions were made from, by object id (rows of the viewer's workspaces). */
    derivedFrom: loader(loadDerivedFrom),
    /** What was made from an object, by its id. */
    dependents: loader(loadDependents),
    /** Object versions never change once written, so caching them for the request is always right. */
    objectVersion: loader(loadObjectVersions, { cacheKeyFn: (k: VersionKey) => `${k.objectId}:${k.version}` }),
    /** Users who share a visible workspace with the viewer. */
    user: loader(loadUsers),
    /** A main thread is private to its owner. */
    thread: loader(loadThreads),
    message: loader(loadMessages),
    /** A task's turns with their steps and tool calls (callers check the task's visibility first). */
    turnsByTask: loader(loadTurnsOfTasks),
    inboxByTask: loader(loadInboxOfTasks),
    /** Ids of the objects a task references; load them through `object`. */
    objectIdsByTask: loader(loadObjectIdsOfTasks),
    /** Ids of the tasks that reference an object; load them through `task`. */
    taskIdsByObject: loader(loadTaskIdsOfObjects),
    routeByMessage: loader(loadRoutesOfMessages),
    cardByMessage: loader(loadCardsOfMessages),
    /** The state of a delivered message, from its inbox item and the step that read it. */
    delivery: loader(loadDeliveries),
    /** A memory's chain with provenance (callers check the memory's visibility first). */
    memoryVersions: loader(loadMemoryVersions),
    /** Where a memory's versions were used (callers check the memory's visibility first). */
    memoryUses: loader(loadMemoryUses),
    /** Externally stored event payloads by content hash. Callers check visibility of the event first. */
    payload: loader(loadEventPayloads),
    /** Data keys of sealed content (material, or destroyed by forgetting), by id. */
    dataKey: loader(loadDataKeys),
    /** Whether a task has content withheld by forgetting (callers check the task's visibility first). */
    taskWithheld: loader(loadTasksWithheld),
    /** Agent principals of the viewer's workspaces (event actors name them). */
    agentPrincipal: loader(loadAgentPrincipals),
    /** A schedule's recent runs, by schedule id (schedules the viewer cannot see have none). */
    scheduleRuns: loader(loadRecentRuns),
    /** A task's follow-ups, by task id (rows of workspaces the viewer cannot see are left out). */
    followUpsByTask: loader(loadFollowUpsOfTasks),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/** Rows by id through a loader, leaving out those the viewer may not see (they load as null). */
export async function loadAll<V>(loader: DataLoader<string, V | null, string>, ids: readonly string[]): Promise<V[]> {
  const rows: (V | null)[] = await Promise.all(ids.map((id) => loader.load(id)));
  return rows.filter((x): x is V => x !== null);
}
