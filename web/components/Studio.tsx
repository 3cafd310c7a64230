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
    },
    [router, reload],
  );
  return (
    <div className="studio">
      <Thread tasks={tasks} selectTask={select} />
      <TaskList tasks={tasks} selected={selected} select={select} error={error} />
      <div className="task-area">
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
