'use client';
// The directions of a piece of work side by side: the original task and the forks made from its
// steps ("try a different direction from here"), each with where it went its own way, how far it
// got, its results and what it cost. Shown on the original and on each fork; stacked on a phone.
import Link from 'next/link';
import type { WebForkLineFragment } from '../gql/graphql';
import { usd } from '../lib/client';
import { fileUrl, groupResults } from '../lib/results';
import { statusWord } from '../lib/timeline';

type Line = WebForkLineFragment;

function LineCard({ line, current, original }: { line: Line; current: boolean; original: boolean }) {
  const made = line.jobs.filter((j) => j.status === 'SUCCEEDED' && j.files[0]);
  const { groups } = groupResults(made, line.checklist?.items ?? null, []);
  const shown = groups.flatMap((g) => g.items).slice(0, 6);
  const items = line.checklist?.items ?? [];
  const done = items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').length;
  const from = line.forkedFrom;
  // The task a fork came from is "the original" unless it is itself a fork.
  const heading = original && !from ? 'Original' : `${original ? 'Forked from this one — ' : ''}From step ${from?.step ?? '?'}: “${from?.edit ?? ''}”`;
  return (
    <article className={`fork-line${current ? ' current' : ''}`} data-testid="fork-line" data-current={current || undefined} data-original={original || undefined} aria-label={heading}>
      <h4>{heading}</h4>
      {from ? (
        <p className="muted small">
          {from.pickLabel ? `Picked “${from.pickLabel}” at “${from.stepTitle}”. ` : ''}
          {from.step > 2 ? `Steps 1–${from.step - 1} are shared with the original (paid there).` : from.step === 2 ? 'Step 1 is shared with the original (paid there).' : 'Nothing is shared: every step is made again.'}
        </p>
      ) : null}
      <dl className="fork-facts">
        <div>
          <dt>Status</dt>
          <dd>{statusWord(line.status)}</dd>
        </div>
        <div>
          <dt>Steps done</dt>
          <dd>{items.length ? `${done} of ${items.length}` : 'no plan yet'}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd data-testid="fork-line-cost">{usd(line.cost.totalCents)}</dd>
        </div>
      </dl>
      {shown.length ? (
        <ul className="fork-results" aria-label={`Results of ${original ? 'the original' : 'this direction'}`}>
          {shown.map(({ job, label }) => {
            const f = job.files[0]!;
            return (
              <li key={job.id}>
                {f.mime.startsWith('image/') ? (
                  <img src={fileUrl(f.name)} alt={`${label}: ${job.prompt}`} width={72} height={72} loading="lazy" />
                ) : (
                  <a className="file-link" href={fileUrl(f.name)} download>
                    {label}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted small">No results of its own yet.</p>
      )}
      {current ? (
        <p className="small fork-here">You are looking at this one.</p>
      ) : (
        <Link className="btn secondary small" href={`/?task=${encodeURIComponent(line.id)}`} scroll={false} data-testid="fork-line-open">
          Open {original ? 'the original' : 'this direction'}
        </Link>
      )}
    </article>
  );
}

export function TaskForks({ task }: { task: Line & { forks: Line[]; forkedFrom: (Line['forkedFrom'] & { task?: (Line & { forks: Line[] }) | null }) | null } }) {
  if (!task.forkedFrom && !task.forks.length) return null;
  // The original of this work: the task this one was forked from (null once it is gone), or this task.
  const root = task.forkedFrom ? (task.forkedFrom.task ?? null) : task;
  const forks = root ? root.forks : [];
  const lines: { line: Line; original: boolean }[] = [...(root ? [{ line: root, original: true }] : []), ...forks.map((f) => ({ line: f, original: false }))];
  // This task is shown even when the original is gone.
  if (!lines.some((l) => l.line.id === task.id)) lines.push({ line: task, original: false });
  return (
    <section aria-labelledby="forks-h" className="forks-section" data-testid="forks">
      <h3 id="forks-h">Directions side by side</h3>
      <div className="fork-lines">
        {lines.map(({ line, original }) => (
          <LineCard key={line.id} line={line} original={original} current={line.id === task.id} />
        ))}
      </div>
    </section>
  );
}
