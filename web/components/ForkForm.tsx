'use client';
// "Try a different direction from here": the small form under a step of the plan. It asks what should
// change from this step on and, at a pick among candidates, offers the other candidates; it makes
// the fork (the task itself is not changed) and opens it.
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { describeError, newKey, request } from '../lib/client';
import { ForkTaskDoc } from '../lib/documents';
import { Media, type Thumb } from './ApprovalCard';

export type ForkOption = { id: string; label: string; objectId?: string | null };

export function ForkForm({
  taskId,
  step,
  stepTitle,
  options,
  picked,
  thumbFor,
  onClose,
}: {
  taskId: string;
  /** 1-based position of the step in the plan. */
  step: number;
  stepTitle: string;
  /** At a pick among candidates: the candidates (empty for any other step). */
  options: ForkOption[];
  /** The option picked on this step so far, if any. */
  picked: string | null;
  thumbFor: (objectId: string) => Thumb | null;
  onClose: () => void;
}) {
  const router = useRouter();
  const [edit, setEdit] = useState('');
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One key per attempt, kept across retries of it: a retried request returns the same fork.
  const key = useRef<string | null>(null);
  const id = `fork-${step}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!edit.trim() || busy) return;
    setBusy(true);
    setError(null);
    key.current ??= newKey();
    try {
      const r = await request(ForkTaskDoc, { input: { taskId, atStep: step, edit: edit.trim(), ...(choice ? { choice } : {}), idempotencyKey: key.current } });
      router.push(`/?task=${encodeURIComponent(r.forkTask.task.id)}`, { scroll: false });
    } catch (err) {
      key.current = null;
      setError(describeError(err));
      setBusy(false);
    }
  }

  return (
    <form className="fork-form" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-h`} data-testid="fork-form">
      <p id={`${id}-h`} className="fork-form-title">
        A different direction from step {step}, “{stepTitle}”
      </p>
      <p className="muted small">
        {step > 2 ? `Steps 1–${step - 1} and their results are kept as they are. ` : step === 2 ? 'Step 1 and its results are kept as they are. ' : ''}This task stays as it is: the new direction is a task of its own, side by side with it.
      </p>
      <label htmlFor={`${id}-edit`}>What should change from here?</label>
      <textarea
        id={`${id}-edit`}
        rows={2}
        required
        value={edit}
        onChange={(e) => setEdit(e.target.value)}
        placeholder="e.g. “warmer colours”, “a night scene instead”"
      />
      {options.length > 0 && (
        <fieldset className="fork-choices">
          <legend>Pick another candidate (optional)</legend>
          <label className="fork-choice">
            <input type="radio" name={`${id}-choice`} value="" checked={choice === ''} onChange={() => setChoice('')} />
            <span>Ask me again</span>
          </label>
          {options.map((o) => (
            <label key={o.id} className={`fork-choice${choice === o.id ? ' chosen' : ''}`} data-testid="fork-choice">
              <input type="radio" name={`${id}-choice`} value={o.id} checked={choice === o.id} onChange={() => setChoice(o.id)} />
              {o.objectId ? (
                <span className="thumb">
                  <Media thumb={thumbFor(o.objectId)} label={o.label} />
                </span>
              ) : null}
              <span>
                {o.label}
                {o.id === picked ? <span className="muted"> (picked before)</span> : null}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="form-actions">
        <button type="submit" className="btn primary" disabled={!edit.trim() || busy}>
          {busy ? 'Starting…' : 'Start this direction'}
        </button>
        <button type="button" className="btn secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
