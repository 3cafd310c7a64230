'use client';
import { useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useEffect } from 'react';
import { useBusVersion } from '../lib/bus';
import { TasksDoc } from '../lib/documents';
import { useGql, useSession, useThrottled } from '../lib/hooks';
import { TaskList } from './TaskList';
import { TaskPanel } from './TaskPanel';
import { Thread } from './Thread';

export function Studio() {
  const session = useSession();
  const params = useSearchParams();
  const router = useRouter();
  const selected = params.get('task');
  const { data, error, reload } = useGql(TasksDoc, { workspaceId: session.workspaceId }, session.workspaceId);
  const version = useBusVersion();
  const refresh = useThrottled(() => void reload(), 300);
  useEffect(() => refresh(), [version, refresh]);
  const tasks = data?.workspace.tasks.edges.map((e) => e.node) ?? [];
  const select = useCallback(
    (id: string) => {
      router.replace(`/?task=${encodeURIComponent(id)}`, { scroll: false });
      void reload();
      // On a phone the panel is below the list: bring the task that was tapped into view.
      if (window.matchMedia('(max-width: 720px)').matches) {
        requestAnimationFrame(() => document.getElementById('task-area')?.scrollIntoView({ block: 'start', behavior: 'smooth' }));
      }
    },
    [router, reload],
  );
  return (
    <div className="studio">
      <Thread tasks={tasks} selectTask={select} />
      <TaskList tasks={tasks} loading={!data && !error} selected={selected} select={select} error={error} />
      <div className="task-area" id="task-area">
        {selected ? (
          <TaskPanel key={selected} taskId={selected} />
        ) : (
          <div className="placeholder">
            <h2>Pick a task</h2>
            <p className="muted">Or write in the main thread — Atelier routes each message to the task it belongs to.</p>
          </div>
        )}
      </div>
    </div>
  );
}
