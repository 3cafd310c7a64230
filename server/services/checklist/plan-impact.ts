// What a change to some steps of a task's plan would do to the rest, before anything is spent: the
// results made from them (re-made), the steps that simply wait for the new input, the results that
// stay valid, and the price of re-making — computed from the plan's graph (domain/production-graph.ts).
import type { Viewer } from '../../auth/viewer.ts';
import type { Task } from '../../db/generated/client.ts';
import { impactOf, type Impact } from '../../domain/production-graph.ts';
import { badInput } from '../../errors.ts';
import type { Deps } from '../deps.ts';
import { getTaskChecklist } from './read-checklist.ts';

export async function planImpact(deps: Deps, viewer: Viewer, task: Pick<Task, 'id' | 'checklistVersion'>, changed: readonly string[]): Promise<Impact> {
  if (changed.length > 30) throw badInput('Name at most 30 steps', { argument: 'changed' });
  const checklist = await getTaskChecklist(deps, viewer, task);
  const items = checklist?.items ?? [];
  const unknown = changed.filter((id) => !items.some((i) => i.id === id));
  if (unknown.length) throw badInput(`The plan has no step ${unknown.map((u) => `"${u.slice(0, 40)}"`).join(', ')}`, { argument: 'changed' });
  return impactOf(items.map((i) => ({ ...i, after: i.after ?? [] })), changed);
}
