'use client';
import { stepDepths } from '../lib/plan-graph';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { WebTaskQuery } from '../gql/graphql';
import { bus, progressOf, useBusVersion } from '../lib/bus';
import { describeError, newKey, request, usd } from '../lib/client';
import { SendMessageDoc, TaskDoc } from '../lib/documents';
import { timeAgo, useGql, useSession, useThrottled } from '../lib/hooks';
import { fileUrl, groupResults, jobForRef, linkParts, rawId } from '../lib/results';
import { statusWord, type MilestoneContext } from '../lib/timeline';
import { useTaskEvents } from '../lib/useTaskEvents';
import { ApprovalCard, Media, type CardDocument, type Thumb } from './ApprovalCard';
import { ForkForm, type ForkOption } from './ForkForm';
import { TaskForks } from './TaskForks';
import { TaskFollowUps } from './TaskFollowUps';
import { TaskRounds } from './TaskRounds';
import { TaskSignals as Signals } from './TaskSignals';
import { TaskTimeline as Timeline } from './TaskTimeline';

type Task = WebTaskQuery['task'];
type Job = Task['jobs'][number];
type ChecklistItem = { id: string; title: string; kind: string; count: number; status: string; artifacts?: string[]; evidence?: string | null; estimateCents?: number; after?: string[] };


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

/** `job:<uuid>` / `object:<uuid>` references in agent text become the result's name (or "a result"). */
export function readable(text: string, name: (ref: string) => string | undefined = () => undefined): string {
  return linkParts(text, name)
    .map((p) => p.text)
    .join('');
}

/** Text with named results as links to them (a delivery: "Delivered: Poster 1, Poster 2, Poster 3"). */
function Linked({ text, hrefOf, nameOf }: { text: string; hrefOf: (ref: string) => string | undefined; nameOf: (ref: string) => string | undefined }) {
  return (
    <>
      {linkParts(text, nameOf).map((p, i) => {
        const href = p.ref ? hrefOf(p.ref) : undefined;
        return href ? (
          <a key={i} href={href} target="_blank" rel="noreferrer" data-testid="delivered-link">
            {p.text}
          </a>
        ) : (
          <span key={i}>{p.text}</span>
        );
      })}
    </>
  );
}

function Artifact({ job, label, thumb, chosen, shared = false }: { job: Job; label: string; thumb: Thumb | null; chosen: boolean; shared?: boolean }) {
  const done = job.status === 'SUCCEEDED' && thumb?.src;
  return (
    <figure className={`artifact${chosen ? ' chosen' : ''}`} data-testid="artifact" data-status={job.status} data-label={label} data-chosen={chosen || undefined}>
      <div className="media">
        {done ? (
          <Media thumb={thumb} label={label} />
        ) : job.status === 'FAILED' || job.status === 'CANCELLED' ? (
          <span className="media-msg">{job.status === 'FAILED' ? `Failed${job.error ? `: ${job.error}` : ''}` : 'Cancelled'}</span>
        ) : (
          <span className="media-msg">
            Generating {label}…
            <span className="bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(job.progress * 100)} aria-label={`${label}: progress`}>
              <span style={{ width: `${Math.round(job.progress * 100)}%` }} />
            </span>
          </span>
        )}
      </div>
      <figcaption title={job.prompt}>
        {chosen && <strong className="chosen-badge">✓ Chosen</strong>}
        <span className="result-label" data-testid="result-label">
          {label}
        </span>
        <span className="muted"> · {shared ? 'shared with the original' : usd(job.quoteCents)}</span>
      </figcaption>
    </figure>
  );
}

/**
 * Message this task: words sent here go to this task without routing. On a finished task they
 * continue the work as its next round (the server makes the round; the panel opens it).
 */
function TaskComposer({ task, reviseOpen, onSent }: { task: Task; reviseOpen: number; onSent: (taskId: string) => void }) {
  const session = useSession();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [interrupt, setInterrupt] = useState(false);
  const key = useRef<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  // While a step runs, a message waits for it to finish unless the person asks to interrupt it.
  const running = task.status === 'RUNNING' || task.status === 'QUEUED';
  useEffect(() => {
    if (reviseOpen) box.current?.focus();
  }, [reviseOpen]);
  if (!session.canWrite) return null;
  async function submit(e: FormEvent) {
    e.preventDefault();
    const said = text.trim();
    if (!said || busy) return;
    setBusy(true);
    setError(null);
    key.current ??= newKey();
    try {
      const interrupting = running && interrupt;
      const r = await request(SendMessageDoc, {
        input: { workspaceId: session.workspaceId, taskId: task.id, text: said, idempotencyKey: key.current, ...(interrupting ? { inputPolicy: 'INTERRUPT' as const } : {}) },
      });
      key.current = null;
      setText('');
      setInterrupt(false);
      const to = r.sendMessage.task ?? r.sendMessage.route.task;
      setSent(
        to && to.id !== task.id
          ? `Sent — continuing as a new round: “${to.title}”`
          : interrupting
            ? 'Sent — the agent stops what it was about to do next and reads this first'
            : running
              ? 'Sent — the agent reads it when its current step is done'
              : 'Sent to this task',
      );
      onSent(to?.id ?? task.id);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }
  const id = `composer-${rawId(task.id).slice(0, 8)}`;
  return (
    <form className="task-composer" onSubmit={(e) => void submit(e)} data-testid="task-composer">
      <label htmlFor={id}>{task.isTerminal ? 'Revise or continue this task' : 'Write to this task'}</label>
      <div className="composer-row">
        <textarea
          id={id}
          ref={box}
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
          placeholder={task.isTerminal ? 'What should change? e.g. “make the second one warmer”' : 'Add a detail, ask a question, change direction…'}
        />
        <button type="submit" className="btn primary" disabled={!text.trim() || busy}>
          {busy ? 'Sending…' : 'Send'}
        </button>
      </div>
      {running && (
        <label className="composer-interrupt">
          <input type="checkbox" checked={interrupt} onChange={(e) => setInterrupt(e.target.checked)} data-testid="composer-interrupt" />
          <span>Interrupt: skip what it was about to do next and read this first (work already started finishes)</span>
        </label>
      )}
      {sent && (
        <p className="muted" role="status" data-testid="composer-sent">
          {sent}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

export function TaskPanel({ taskId }: { taskId: string }) {
  const { data, error, reload } = useGql(TaskDoc, { id: taskId }, taskId);
  const { events, stats } = useTaskEvents(taskId);
  const version = useBusVersion();
  const refresh = useThrottled(() => void reload(), 250);
  const router = useRouter();
  const [reviseOpen, setReviseOpen] = useState(0);
  // The step whose "try a different direction from here" form is open (its id), if any.
  const [forkAt, setForkAt] = useState<string | null>(null);
  const session = useSession();
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
  const depths = useMemo(() => stepDepths(checklist?.items ?? []), [checklist]);
  useEffect(() => {
    if (checklist) bus.setChecklist(taskId, progressOf(checklist.items));
  }, [checklist, taskId]);

  const task = data?.task;
  const milestoneCtx = useMemo<MilestoneContext>(() => {
    const approvals = task?.approvals.edges.map((e) => e.node) ?? [];
    return { choiceLabel: (id, choice) => approvals.find((a) => a.id === id || rawId(a.id) === id)?.options.find((o) => o.id === choice)?.label };
  }, [task?.approvals]);
  const options = useMemo(() => (task?.approvals.edges ?? []).flatMap((e) => e.node.options), [task?.approvals]);
  // A fork's steps before its fork point hold the original's results (shared, paid there): shown
  // with its own, marked as shared.
  const shared = useMemo(() => {
    const from = task?.forkedFrom?.task?.jobs ?? [];
    const refs = (checklist?.items ?? []).flatMap((i) => i.artifacts ?? []);
    return from.filter((j) => refs.some((r) => jobForRef(r, [j])));
  }, [task?.forkedFrom, checklist]);
  const sharedIds = useMemo(() => new Set(shared.map((j) => j.id)), [shared]);
  const allJobs = useMemo(() => [...(task?.jobs ?? []), ...shared], [task?.jobs, shared]);
  const results = useMemo(() => groupResults(allJobs, checklist?.items ?? null, options), [allJobs, checklist, options]);
  const thumbFor = useMemo(() => {
    const jobs = allJobs;
    const objects = task?.objects ?? [];
    return (objectId: string): Thumb | null => {
      // A candidate names its job, its file or the object its picture was saved as.
      const job = jobForRef(objectId, jobs);
      const f = job?.status === 'SUCCEEDED' ? job.files[0] : undefined;
      const name = job?.asset ? objects.find((o) => rawId(o.id) === rawId(job.asset!.id))?.title : undefined;
      return job ? { src: f ? fileUrl(f.name) : null, mime: f?.mime ?? '', name: name ?? job.prompt } : null;
    };
  }, [allJobs, task?.objects]);
  const documents = useMemo<CardDocument[]>(
    () =>
      (task?.objects ?? [])
        .filter((o) => o.kind === 'DOCUMENT' && o.current?.markdown)
        .sort((x, y) => y.updatedAt.localeCompare(x.updatedAt))
        .map((o) => ({ name: o.title, markdown: o.current!.markdown! })),
    [task?.objects],
  );
  const nameOf = (ref: string) => {
    const j = jobForRef(ref, task?.jobs ?? []);
    return j ? results.labels.get(j.id) : undefined;
  };
  const hrefOf = (ref: string) => {
    const f = jobForRef(ref, task?.jobs ?? [])?.files[0];
    return f ? fileUrl(f.name) : undefined;
  };

  if (error && !task) return <p className="error pad" role="alert">{error}</p>;
  if (!task) return <p className="muted pad">Loading the task…</p>;

  const approvals = task.approvals.edges.map((e) => e.node);
  const pending = approvals.filter((a) => a.status === 'PENDING');
  const decided = approvals.filter((a) => a.status !== 'PENDING');
  const progress = checklist ? progressOf(checklist.items) : null;
  // A step can be forked from once every step before it is finished (the fork keeps their results).
  const forkable = (k: number) => session.canWrite && !!checklist && checklist.items.slice(0, k).every((i) => i.status === 'DONE' || i.status === 'SKIPPED');
  /** The candidates of a pick step (its latest pick card), and what was picked on it. */
  const pickOf = (stepId: string): { options: ForkOption[]; picked: string | null } => {
    const card = approvals.find((a) => a.kind === 'CHECKPOINT' && (a.action as { itemId?: unknown } | null)?.itemId === stepId && a.options.length >= 2);
    return { options: card?.options ?? [], picked: card?.status === 'APPROVED' ? (card.choice ?? null) : null };
  };
  const sharedSteps = task.forkedFrom ? task.forkedFrom.step - 1 : 0;
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
          <p className="goal" title={task.goal}>{readable(task.goal, nameOf)}</p>
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
      <TaskFollowUps task={task} onChanged={() => void reload()} />
      <Signals task={task} onDone={() => void reload()} />
      {task.isTerminal && (
        <div className="signal-buttons" role="toolbar" aria-label="Continue this task">
          <button type="button" className="btn secondary small" onClick={() => setReviseOpen((n) => n + 1)} data-testid="revise-finished">
            Revise
          </button>
        </div>
      )}
      {pending.length > 0 && (
        <div className="pending-cards" aria-label="Waiting for you">
          {pending.map((a) => (
            <ApprovalCard key={a.id} approval={a} thumbFor={thumbFor} documents={documents} onResolved={() => void reload()} />
          ))}
        </div>
      )}
      {task.isTerminal && task.summary && (
        <p className="summary" data-testid="task-summary" lang={task.language ?? undefined}>
          <Linked text={task.summary} hrefOf={hrefOf} nameOf={nameOf} />
        </p>
      )}
      <section aria-labelledby="artifacts-h" className="artifacts-section">
        <h3 id="artifacts-h">Results</h3>
        {results.groups.length ? (
          results.groups.map((g) => (
            <div key={g.stepId ?? g.title} className="result-group" data-testid="result-group" data-step={g.stepId ?? undefined}>
              <h4>{g.title}</h4>
              <div className="artifacts">
                {g.items.map(({ job, label }) => (
                  <Artifact key={job.id} job={job} label={label} thumb={thumbFor(job.id)} chosen={results.chosen.has(job.id)} shared={sharedIds.has(job.id)} />
                ))}
              </div>
            </div>
          ))
        ) : (
          <p className="muted">Nothing generated yet.</p>
        )}
      </section>
      <TaskComposer task={task} reviseOpen={reviseOpen} onSent={(id) => (id !== task.id ? router.replace(`/?task=${encodeURIComponent(id)}`, { scroll: false }) : void reload())} />
      <TaskRounds rounds={task.rounds} current={task.round} />
      <TaskForks task={task} />
      <div className="panel-grid">
        <section aria-labelledby="checklist-h" className="checklist">
          <h3 id="checklist-h">Checklist</h3>
          {checklist ? (
            <ol>
              {checklist.items.map((i, k) => (
                <li
                  key={i.id}
                  className={`item item-${i.status.toLowerCase()}`}
                  data-testid="checklist-item"
                  data-status={i.status}
                  data-depth={depths.get(i.id) ?? 0}
                  style={depths.get(i.id) ? { marginInlineStart: `${Math.min(depths.get(i.id)!, 6) * 0.9}rem` } : undefined}
                >
                  <span className="check" aria-hidden="true">
                    {i.status === 'DONE' ? '✓' : i.status === 'IN_PROGRESS' ? '…' : i.status === 'SKIPPED' ? '–' : i.status === 'BLOCKED' ? '!' : i.status === 'STALE' ? '↻' : '○'}
                  </span>
                  <span>
                    {i.title}
                    {i.count > 1 ? ` (${i.artifacts?.length ?? 0}/${i.count})` : ''}
                    <span className="sr-only"> — {i.status.toLowerCase().replace('_', ' ')}</span>
                    {i.status === 'STALE' ? (
                      <span className="stale-mark" data-testid="stale-mark">
                        {' '}
                        · out of date{i.evidence ? `: ${i.evidence}` : ''}
                      </span>
                    ) : null}
                    {i.after?.length ? (
                      <span className="muted small uses" data-testid="checklist-uses">
                        {' '}
                        · uses {i.after.map((a) => checklist.items.find((x) => x.id === a)?.title ?? a).join(', ')}
                      </span>
                    ) : null}
                    {k < sharedSteps ? (
                      <span className="muted small" data-testid="shared-step">
                        {' '}
                        · from the original
                      </span>
                    ) : null}
                  </span>
                  {forkable(k) && forkAt !== i.id ? (
                    <span className="fork-row">
                      <button
                        type="button"
                        className="btn tiny fork-button"
                        onClick={() => setForkAt(i.id)}
                        aria-label={`Try a different direction from here (step ${k + 1}, ${i.title})`}
                        data-testid="fork-button"
                      >
                        Try a different direction from here
                      </button>
                    </span>
                  ) : null}
                  {forkAt === i.id ? (
                    <ForkForm taskId={task.id} step={k + 1} stepTitle={i.title} {...pickOf(i.id)} thumbFor={thumbFor} onClose={() => setForkAt(null)} />
                  ) : null}
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
            <ApprovalCard key={a.id} approval={a} thumbFor={thumbFor} documents={documents} onResolved={() => void reload()} />
          ))}
        </details>
      )}
    </article>
  );
}
