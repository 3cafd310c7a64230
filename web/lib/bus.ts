'use client';
// The workspace's event stream (workspaceEvents from a cursor): tells views to refresh, and keeps
// each task's checklist progress as it streams by. Deduplicated by cursor; resumed from the last one.
import { useSyncExternalStore } from 'react';
import { WorkspaceEventsSub } from './documents';
import { live } from './live';

export type Progress = { done: number; total: number };

type ChecklistItem = { id: string; title: string; status: string; count?: number; artifacts?: string[] };

export function progressOf(items: ChecklistItem[]): Progress {
  const total = items.length;
  const done = items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').length;
  return { done, total };
}

class Bus {
  version = 0;
  checklists = new Map<string, Progress>();
  private cursor: string | null = null;
  private seen: string[] = [];
  private listeners = new Set<() => void>();
  private stop: (() => void) | undefined;
  private workspaceId: string | undefined;

  private bump() {
    this.version++;
    for (const l of this.listeners) l();
  }

  onChange(l: () => void) {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  }

  setChecklist(taskId: string, p: Progress) {
    const old = this.checklists.get(taskId);
    if (old && old.done === p.done && old.total === p.total) return;
    this.checklists.set(taskId, p);
    this.bump();
  }

  start(workspaceId: string) {
    if (this.workspaceId === workspaceId) return;
    this.stop?.();
    this.workspaceId = workspaceId;
    // Coming back after a drop: whatever happened meanwhile is replayed from the cursor; views refresh.
    live.onChange(() => {
      if (live.state === 'live') this.bump();
    });
    this.stop = live.subscribe(
      WorkspaceEventsSub,
      () => ({ workspaceId, after: this.cursor }),
      (d) => {
        const e = d.workspaceEvents;
        if (this.seen.includes(e.cursor)) return;
        this.seen.push(e.cursor);
        if (this.seen.length > 500) this.seen.shift();
        this.cursor = e.cursor;
        if (e.type === 'CHECKLIST_UPDATED') {
          const items = (e.payload as { items?: ChecklistItem[] } | null)?.items;
          if (items) this.checklists.set(e.task.id, progressOf(items));
        }
        this.bump();
      },
    );
  }
}

export const bus = new Bus();

/** A number that changes whenever something happened in the workspace. */
export function useBusVersion(): number {
  return useSyncExternalStore(
    (cb) => bus.onChange(cb),
    () => bus.version,
    () => 0,
  );
}
