'use client';
import { useSyncExternalStore } from 'react';
import type { WebTasksQuery } from '../gql/graphql';
import { bus } from '../lib/bus';
import { usd } from '../lib/client';
import { statusWord } from '../lib/timeline';
import { McpPendingNotice } from './McpPendingNotice';
import { waitingReason } from './TaskPanel';

type TaskRef = WebTasksQuery['workspace']['tasks']['edges'][number]['node'];

/** Task cards while the list loads: the same shape as a card, so nothing jumps when it arrives. */
function TaskSkeletons() {
  return (
    <ul aria-busy="true" aria-label="Loading tasks">
      {[0, 1, 2].map((i) => (
        <li key={i}>
          <span className="task-item skeleton-card" data-testid="skeleton">
            <span className="skeleton-line w70" />
            <span className="skeleton-line w90 thin" />
            <span className="skeleton-line w40 thin" />
          </span>
        </li>
      ))}
    </ul>
  );
}

export function TaskList({ tasks, loading, selected, select, error }: { tasks: TaskRef[]; loading: boolean; selected: string | null; select: (id: string) => void; error: string | null }) {
  useSyncExternalStore((cb) => bus.onChange(cb), () => bus.version, () => 0);
  return (
    <nav className="tasklist" aria-labelledby="tasks-h">
      <h2 id="tasks-h" className="panel-title">Tasks</h2>
      <McpPendingNotice />
      {error && <p className="error" role="alert">{error}</p>}
      {loading && !error && <TaskSkeletons />}
      {!loading && tasks.length === 0 && !error && <p className="muted empty">No tasks yet. They appear here when a message starts one.</p>}
      <ul hidden={loading}>
        {tasks.map((t) => {
          // Live from the workspace stream once it has spoken about the task; until then (a reload,
          // a task not touched since) the checklist as loaded — every card shows its progress.
          const p = bus.checklists.get(t.id) ?? (t.checklist ? { done: t.checklist.done, total: t.checklist.total } : undefined);
          const cost = t.ledger.chargedCents + t.ledger.outstandingCents;
          return (
            <li key={t.id}>
              <button
                type="button"
                className={`task-item${selected === t.id ? ' selected' : ''}`}
                aria-current={selected === t.id ? 'true' : undefined}
                onClick={() => select(t.id)}
                data-testid="task-item"
                data-status={t.status}
              >
                <span className="task-item-top">
                  <span className="task-title">
                    {t.title}
                    {t.round > 1 && <span className="muted round-mark"> · round {t.round}</span>}
                    {t.forkedFrom && <span className="muted round-mark"> · other direction from step {t.forkedFrom.step}</span>}
                  </span>
                  <span className={`status small status-${t.status.toLowerCase()}`}>{statusWord(t.status)}</span>
                </span>
                <span className="task-item-meta">
                  <span className="reason">{waitingReason({ ...t, approvals: { edges: t.approvals.edges.map((e) => ({ node: { ...e.node, status: 'PENDING' } })) } })}</span>
                </span>
                <span className="task-item-meta">
                  {p ? (
                    <span className="mini-progress" data-testid="task-progress" role="img" aria-label={`${p.done} of ${p.total} steps done`}>
                      <span className="bar" aria-hidden="true">
                        <span style={{ width: `${p.total ? (100 * p.done) / p.total : 0}%` }} />
                      </span>
                      <span aria-hidden="true">
                        {p.done}/{p.total}
                      </span>
                    </span>
                  ) : (
                    <span className="muted">No plan yet</span>
                  )}
                  <span className="cost">{usd(cost)}</span>
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
