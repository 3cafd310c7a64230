'use client';
import type { WebRoundFragment } from '../gql/graphql';
import { fileUrl, groupResults, jobForRef, plainText } from '../lib/results';
import { statusWord } from '../lib/timeline';

/**
 * The other rounds of a task's line of work: each earlier round with what it was asked, how it ended
 * and its results; a later round, when this one was continued.
 */
export function TaskRounds({ rounds, current }: { rounds: WebRoundFragment[]; current: number }) {
  const earlier = rounds.filter((r) => r.round < current).reverse();
  const later = rounds.filter((r) => r.round > current);
  if (!earlier.length && !later.length) return null;
  return (
    <section aria-labelledby="rounds-h" className="rounds-section" data-testid="rounds">
      <h3 id="rounds-h">Earlier rounds</h3>
      {later.length > 0 && (
        <p className="muted" data-testid="continued-in">
          Continued in round {later.at(-1)!.round} ({statusWord(later.at(-1)!.status)}).
        </p>
      )}
      {earlier.map((r) => {
        const made = r.jobs.filter((j) => j.status === 'SUCCEEDED' && j.files[0]);
        // Named by the round's own checklist ("Poster 2"), like the results of the current round.
        const { labels } = groupResults(made, r.checklist?.items ?? null, []);
        const named = [...made].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
        const nameOf = (ref: string) => {
          const j = jobForRef(ref, made);
          return j ? labels.get(j.id) : undefined;
        };
        return (
          <details key={r.id} className="round" data-testid="round" data-round={r.round} data-status={r.status} open={r.round === current - 1}>
            <summary>
              Round {r.round} · {statusWord(r.status)} — “{r.goal.length > 90 ? `${r.goal.slice(0, 89)}…` : r.goal}”
            </summary>
            {r.summary && <p className="summary">{plainText(r.summary, nameOf)}</p>}
            {r.status !== 'COMPLETED' && r.statusReason && <p className="muted">{r.statusReason}</p>}
            {named.length ? (
              <div className="artifacts">
                {named.map((j, k) => {
                  const f = j.files[0]!;
                  const label = labels.get(j.id) ?? `Result ${k + 1}`;
                  return (
                    <figure key={j.id} className="artifact" data-testid="round-artifact" data-label={label}>
                      <div className="media">
                        {f.mime.startsWith('image/') ? (
                          <img src={fileUrl(f.name)} alt={`Round ${r.round}, ${label}: ${j.prompt}`} width={f.width ?? 256} height={f.height ?? 256} loading="lazy" />
                        ) : f.mime.startsWith('audio/') ? (
                          <audio controls preload="metadata" src={fileUrl(f.name)} aria-label={`Play round ${r.round}, ${label}`} />
                        ) : f.mime.startsWith('video/') ? (
                          <video controls preload="metadata" src={fileUrl(f.name)} aria-label={`Play round ${r.round}, ${label}`} />
                        ) : (
                          <a className="file-link" href={fileUrl(f.name)} download>
                            Download {label}
                          </a>
                        )}
                      </div>
                      <figcaption title={j.prompt}>{label}</figcaption>
                    </figure>
                  );
                })}
              </div>
            ) : (
              <p className="muted">No results in this round.</p>
            )}
          </details>
        );
      })}
    </section>
  );
}
