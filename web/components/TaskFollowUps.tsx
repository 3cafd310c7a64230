'use client';
// The agent's pending follow-ups on a task, in plain words ("Will check again Friday 09:00: see
// whether the video's colours are right"), each with a Cancel button for those who may write.
import { useState } from 'react';
import type { WebTaskQuery } from '../gql/graphql';
import { describeError, request } from '../lib/client';
import { CancelFollowUpDoc } from '../lib/documents';
import { useSession } from '../lib/hooks';
import { whenAhead } from '../lib/timeline';

type Task = WebTaskQuery['task'];
type FollowUp = Task['followUps'][number];

function FollowUpItem({ f, canCancel, onCancelled }: { f: FollowUp; canCancel: boolean; onCancelled: (reason: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      await request(CancelFollowUpDoc, { input: { followUpId: f.id } });
      onCancelled(f.reason);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="follow-up" data-testid="follow-up">
      <p className="follow-up-text">
        Will check again <time dateTime={f.wakeAt}>{whenAhead(f.wakeAt)}</time>
        {f.deferred ? <span className="muted"> (after quiet hours)</span> : null}: {f.reason}
      </p>
      {canCancel && (
        <button type="button" className="btn ghost small" disabled={busy} onClick={() => void cancel()} aria-label={`Cancel the follow-up: ${f.reason}`}>
          {busy ? 'Cancelling…' : 'Cancel follow-up'}
        </button>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

export function TaskFollowUps({ task, onChanged }: { task: Task; onChanged: () => void }) {
  const session = useSession();
  const [cancelled, setCancelled] = useState<string | null>(null);
  const pending = task.followUps.filter((f) => f.status === 'PENDING');
  if (!pending.length && !cancelled) return null;
  return (
    <section className="follow-ups" aria-label="The agent will come back to this">
      {pending.length > 0 && (
        <ul>
          {pending.map((f) => (
            <FollowUpItem
              key={f.id}
              f={f}
              canCancel={session.canWrite && !task.isTerminal}
              onCancelled={(reason) => {
                setCancelled(reason);
                onChanged();
              }}
            />
          ))}
        </ul>
      )}
      {cancelled && (
        <p className="muted" role="status" data-testid="follow-up-cancelled">
          Cancelled: the agent will not come back to “{cancelled}” by itself.
        </p>
      )}
    </section>
  );
}
