'use client';
import { useEffect, useMemo } from 'react';
import type { WebTaskQuery } from '../gql/graphql';
import { bus, progressOf, useBusVersion } from '../lib/bus';
import { usd } from '../lib/client';
import { TaskDoc } from '../lib/documents';
import { timeAgo, useGql, useThrottled } from '../lib/hooks';
import { statusWord, type MilestoneContext } from '../lib/timeline';
import { useTaskEvents } from '../lib/useTaskEvents';
import { ApprovalCard, type Thumb } from './ApprovalCard';
import { TaskRounds } from './TaskRounds';
import { TaskSignals as Signals } from './TaskSignals';
import { TaskTimeline as Timeline } from './TaskTimeline';

type Task = WebTaskQuery['task'];
type Job = Task['jobs'][number];
type ChecklistItem = { id: string; title: string; kind: string; count: number; status: string; artifacts?: string[]; evidence?: string | null; estimateCents?: number };

export function waitingReason(task: { status: string; statusReason?: string | null; jobs: { status: string }[]; approvals: { edges: { node: { status?: string; kind: string; title: string } }[] } }): string {
  const pending = task.approvals.edges.map((e) => e.node).filter((a) => a.status === undefined || a.status === 'PENDING');
  const running = task.jobs.filter((j) => ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'].includes(j.status)).length;
  if (task.status === 'PAUSED') return `Paused${task.statusReason ? ` — ${task.statusReason}` : ''}`;
  if (pending.length) return `Needs your decision: ${pending[0]!.title}`;
  if (running) return `Generating (${running} running)`;
  if (task.status === 'WAITING') return task.statusReason ? `Waiting — ${task.statusReason}` : 'Waiting';
  if (task.status === 'RUNNING') return 'Working';
  if (task.status === 'QUEUED') return 'About to continue';
  return task.statusReason ? `${statusWord(task.status)} — ${task.statusReason}` : statusWord(task.status);
}

/** The database id inside a global id ("Type:uuid", base64), as event payloads carry it. */
const rawId = (gid: string) => {
  try {
    const s = atob(gid);
    return s.slice(s.indexOf(':') + 1);
  } catch {
    return gid;
  }
};

const fileUrl = (name: string) => `/files/${encodeURIComponent(name)}`;

/** `job:<uuid>` / `object:<uuid>` references in agent text become "result 3" (numbered as shown). */
export function readable(text: string, jobIds: string[]): string {
  return text.replace(/\b(?:job|object):([0-9a-f-]{36})\b/g, (_, id: string) => {
    const i = jobIds.indexOf(id);
    return i >= 0 ? `result ${i + 1}` : 'a result';
  });
}

function Artifact({ job, n, chosen }: { job: Job; n: number; chosen: boolean }) {
  const f = job.files[0];
  const done = job.status === 'SUCCEEDED' && f;
  return (
    <figure className="artifact" data-testid="artifact" data-status={job.status}>
      <div className="media">
        {done && f.mime.startsWith('image/') ? (
          <img src={fileUrl(f.name)} alt={`Result: ${job.prompt}`} width={f.width ?? 256} height={f.height ?? 256} loading="lazy" />
        ) : done && f.mime.startsWith('audio/') ? (
          <audio controls src={fileUrl(f.name)} aria-label={`Audio: ${job.prompt}`} />
        ) : done && f.mime.startsWith('video/') ? (
          <video controls src={fileUrl(f.name)} aria-label={`Video: ${job.prompt}`} />
        ) : done ? (
          <a className="file-link" href={fileUrl(f.name)} download>
            {f.mime.includes('gltf') ? '3D model (glTF)' : f.mime} · download
          </a>
        ) : job.status === 'FAILED' || job.status === 'CANCELLED' ? (
          <span className="media-msg">{job.status === 'FAILED' ? `Failed${job.error ? `: ${job.error}` : ''}` : 'Cancelled'}</span>
        ) : (
          <span className="media-msg">
            Generating…
            <span className="bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(job.progress * 100)} aria-label="Progress">
              <span style={{ width: `${Math.round(job.progress * 100)}%` }} />
            </span>
          </span>
        )}
      </div>
      <figcaption title={job.prompt}>
        {chosen && <strong className="chosen-mark">Chosen · </strong>}
        Result {n} · {usd(job.quoteCents)}
      </figcaption>
    </figure>
  );
}

export function TaskPanel({ taskId }: { taskId: string }) {
  const { data, error, reload } = useGql(TaskDoc, { id: taskId }, taskId);
  const { events, stats } = useTaskEvents(taskId);
  const version = useBusVersion();
  const refresh = useThrottled(() => void reload(), 250);
  useEffect(() => refresh(), [version, events.length, refresh]);

  const checklist = useMemo(() => {
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.type === 'CHECKLIST_UPDATED' && !e.redacted) {
        const p = e.payload as { version: number; items: ChecklistItem[] };
        if (Array.isArray(p?.items)) return p;
      }
    }
    return null;
  }, [events]);
  useEffect(() => {
    if (checklist) bus.setChecklist(taskId, progressOf(checklist.items));
  }, [checklist, taskId]);

  const task = data?.task;
  const milestoneCtx = useMemo<MilestoneContext>(() => {
    const approvals = task?.approvals.edges.map((e) => e.node) ?? [];
    return { choiceLabel: (id, choice) => approvals.find((a) => a.id === id || rawId(a.id) === id)?.options.find((o) => o.id === choice)?.label };
  }, [task?.approvals]);
  const thumbFor = useMemo(() => {
    const jobs = task?.jobs ?? [];
    return (objectId: string): Thumb | null => {
      const bare = objectId.replace(/^(job|object):/, '');
      // A candidate names its job, its file or the object its picture was saved as.
      const job = jobs.find((j) => j.id === bare || (j.asset && rawId(j.asset.id) === bare) || j.files.some((f) => f.name === bare || f.name.startsWith(`${bare}.`)));
      const f = job?.files[0];
      return f ? { src: fileUrl(f.name), mime: f.mime } : null;
    };
  }, [task?.jobs]);

  if (error && !task) return <p className="error pad" role="alert">{error}</p>;
  if (!task) return <p className="muted pad">Loading the task…</p>;

  const jobs = [...task.jobs].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const jobIds = jobs.map((j) => j.id);
  // Results grouped by the checklist step they belong to (candidates, the final series, …).
  const groups: { title: string; jobs: Job[] }[] = [];
  const placed = new Set<string>();
  const chosen = new Set<string>();
  for (const item of checklist?.items ?? []) {
    const ids = (item.artifacts ?? []).filter((a) => a.startsWith('job:')).map((a) => a.slice(4));
    for (const a of item.artifacts ?? []) if (a.startsWith('object:')) chosen.add(a.slice(7));
    const mine = jobs.filter((j) => ids.includes(j.id));
    const running = item.status !== 'DONE' ? jobs.filter((j) => !placed.has(j.id) && !ids.includes(j.id) && j.status !== 'SUCCEEDED' && (item.kind === j.kind)) : [];
    for (const j of [...mine, ...running]) placed.add(j.id);
    if (mine.length || running.length) groups.push({ title: item.title, jobs: [...mine, ...running] });
  }
  const rest = jobs.filter((j) => !placed.has(j.id));
  if (rest.length) groups.push({ title: groups.length ? 'Other results' : 'Results', jobs: rest });
  const approvals = task.approvals.edges.map((e) => e.node);
  const pending = approvals.filter((a) => a.status === 'PENDING');
  const decided = approvals.filter((a) => a.status !== 'PENDING');
  const progress = checklist ? progressOf(checklist.items) : null;
  const spent = task.ledger.chargedCents;
  const held = task.ledger.outstandingCents;

  return (
    <article className="task-panel" aria-labelledby="task-h" data-testid="task-panel" data-status={task.status}>
      <header className="task-head">
        <div>
          <h2 id="task-h">
            {task.title}
            {task.round > 1 && <span className="muted round-mark"> · round {task.round}</span>}
          </h2>
          <p className="goal" title={task.goal}>{readable(task.goal, jobIds)}</p>
        </div>
        <span className={`status status-${task.status.toLowerCase()}`} data-testid="task-status">
          {statusWord(task.status)}
        </span>
      </header>
      <dl className="facts">
        <div>
          <dt>Now</dt>
          <dd data-testid="waiting-reason">{waitingReason(task)}</dd>
        </div>
        <div>
          <dt>Checklist</dt>
          <dd data-testid="checklist-progress">{progress ? `${progress.done} of ${progress.total} steps` : 'no plan yet'}</dd>
        </div>
        <div>
          <dt>Cost so far</dt>
          <dd data-testid="cost">
            {usd(spent)}
            {held > 0 ? ` (+${usd(held)} on hold)` : ''}
            {task.budgetCapCents != null ? ` of ${usd(task.budgetCapCents)} cap` : ''}
          </dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{timeAgo(task.updatedAt)}</dd>
        </div>
      </dl>
      <Signals task={task} onDone={() => void reload()} />
      {pending.length > 0 && (
        <div className="pending-cards" aria-label="Waiting for you">
          {pending.map((a) => (
            <ApprovalCard key={a.id} approval={a} thumbFor={thumbFor} onResolved={() => void reload()} />
          ))}
        </div>
      )}
      {task.isTerminal && task.summary && (
        <p className="summary" data-testid="task-summary">
          {readable(task.summary, jobIds)}
        </p>
      )}
      <section aria-labelledby="artifacts-h" className="artifacts-section">
        <h3 id="artifacts-h">Results</h3>
        {groups.length ? (
          groups.map((g) => (
            <div key={g.title} className="result-group">
              <h4>{g.title}</h4>
              <div className="artifacts">
                {g.jobs.map((j) => (
                  <Artifact key={j.id} job={j} n={jobIds.indexOf(j.id) + 1} chosen={chosen.has(j.id)} />
                ))}
              </div>
            </div>
          ))
        ) : (
          <p className="muted">Nothing generated yet.</p>
        )}
      </section>
      <TaskRounds rounds={task.rounds} current={task.round} />
      <div className="panel-grid">
        <section aria-labelledby="checklist-h" className="checklist">
          <h3 id="checklist-h">Checklist</h3>
          {checklist ? (
            <ol>
              {checklist.items.map((i) => (
                <li key={i.id} className={`item item-${i.status.toLowerCase()}`} data-testid="checklist-item" data-status={i.status}>
                  <span className="check" aria-hidden="true">
                    {i.status === 'DONE' ? '✓' : i.status === 'IN_PROGRESS' ? '…' : i.status === 'SKIPPED' ? '–' : i.status === 'BLOCKED' ? '!' : '○'}
                  </span>
                  <span>
                    {i.title}
                    {i.count > 1 ? ` (${i.artifacts?.length ?? 0}/${i.count})` : ''}
                    <span className="sr-only"> — {i.status.toLowerCase().replace('_', ' ')}</span>
                  </span>
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">The agent has not planned this task yet.</p>
          )}
        </section>
        <Timeline events={events} stats={stats} ctx={milestoneCtx} />
      </div>
      {decided.length > 0 && (
        <details className="decided">
          <summary>Past decisions ({decided.length})</summary>
          {decided.map((a) => (
            <ApprovalCard key={a.id} approval={a} thumbFor={thumbFor} onResolved={() => void reload()} />
          ))}
        </details>
      )}
    </article>
  );
}
