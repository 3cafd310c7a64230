// Which key the current writes are sealed under. The runtime runs each step inside
// `sealingWith(key, …)` (the task's key, refreshed after the step's memory section was assembled),
// so everything the step writes — its decision, tool calls, events, checklist, job orders — is
// sealed without a lookup per write. Writes outside a step (the API's) look the task's key up
// (`sealForTask`), so a person's action that copies derived content never writes it in the clear.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../db/client.ts';
import { sealValue, type DataKeyMaterial } from '../../domain/sealing.ts';
import { taskSealingKey } from './keys.ts';

type Scope = { taskId: string; key: DataKeyMaterial | null };
// One context per process, whichever copy of this module reads it (a runtime plugin may import the
// server's sources while the server runs from its bundle): a plugin's writes inside a step seal
// under the step's key like the runtime's own.
const slot = Symbol.for('atelier.sealing.scope');
const scope: AsyncLocalStorage<Scope> = ((globalThis as Record<symbol, unknown>)[slot] ??= new AsyncLocalStorage<Scope>()) as AsyncLocalStorage<Scope>;

/** Runs `fn` with writes for `taskId` sealed under `key` (null: the task has no key; write in the clear). */
export function sealingWith<T>(taskId: string, key: DataKeyMaterial | null, fn: () => T): T {
  return scope.run({ taskId, key }, fn);
}

/** Inside a step of `taskId`, the step's key (null: the step writes in the clear); elsewhere undefined. */
export function stepSealingKey(taskId: string): { key: DataKeyMaterial | null } | undefined {
  const s = scope.getStore();
  return s && s.taskId === taskId ? { key: s.key } : undefined;
}

/** The key writes for the task are sealed under: the step's (inside a step), else the task's current one. */
export async function sealingKeyFor(db: Db, taskId: string): Promise<DataKeyMaterial | null> {
  const s = scope.getStore();
  return s && s.taskId === taskId ? s.key : taskSealingKey(db, taskId);
}

/**
 * The value sealed under the task's key, or unchanged when the task has none. Inside a step of
 * this task the step's key is used; elsewhere the task's current key is read.
 */
export async function sealForTask<T>(db: Db, taskId: string | null, value: T): Promise<T> {
  if (value === null || value === undefined || !taskId) return value;
  const key = await sealingKeyFor(db, taskId);
  return key ? sealValue(key, value) : value;
}
