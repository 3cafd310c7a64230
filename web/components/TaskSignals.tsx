'use client';
// A task's signals (pause, resume, revise, add context, cancel), each sent once with a fresh
// idempotency key; cancel asks for a second click because it cannot be undone.
import { useState } from 'react';
import type { WebTaskQuery } from '../gql/graphql';
import { describeError, newKey, request } from '../lib/client';
import { SignalDoc } from '../lib/documents';
import { useSession } from '../lib/hooks';

type Task = WebTaskQuery['task'];

export function TaskSignals({ task, onDone }: { task: Task; onDone: () => void }) {
  const [mode, setMode] = useState<'REVISE' | 'ADD_CONTEXT' | null>(null);
  const [text, setText] = useState('');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const session = useSession();
  if (task.isTerminal || !session.canWrite) return null;

  async function send(signal: 'PAUSE' | 'RESUME' | 'REVISE' | 'ADD_CONTEXT' | 'CANCEL', t?: string) {
    setBusy(signal);
    setError(null);
    try {
      await request(SignalDoc, { input: { taskId: task.id, signal, text: t ?? null, idempotencyKey: newKey() } });
      setMode(null);
      setText('');
      setConfirmCancel(false);
      onDone();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(null);
    }
  }
  return (
    <div className="signals">
      <div className="signal-buttons" role="toolbar" aria-label="Steer this task">
        {task.status === 'PAUSED' ? (
          <button type="button" className="btn secondary small" disabled={!!busy} onClick={() => void send('RESUME')}>
            Resume
          </button>
        ) : (
          <button type="button" className="btn secondary small" disabled={!!busy} onClick={() => void send('PAUSE')}>
            Pause
          </button>
        )}
        <button type="button" className="btn secondary small" aria-expanded={mode === 'REVISE'} onClick={() => setMode(mode === 'REVISE' ? null : 'REVISE')}>
          Revise
        </button>
        <button type="button" className="btn secondary small" aria-expanded={mode === 'ADD_CONTEXT'} onClick={() => setMode(mode === 'ADD_CONTEXT' ? null : 'ADD_CONTEXT')}>
          Add context
        </button>
        {confirmCancel ? (
          <span className="confirm-inline">
            Cancel this task?
            <button type="button" className="btn danger small" disabled={!!busy} onClick={() => void send('CANCEL')}>
              Yes, cancel
            </button>
            <button type="button" className="btn ghost small" onClick={() => setConfirmCancel(false)}>
              No
            </button>
          </span>
        ) : (
          <button type="button" className="btn ghost small" onClick={() => setConfirmCancel(true)}>
            Cancel…
          </button>
        )}
      </div>
      {mode && (
        <form
          className="signal-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) void send(mode, text.trim());
          }}
        >
          <label>
            <span>{mode === 'REVISE' ? 'What should change?' : 'What should the agent know?'}</span>
            <input autoFocus value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <button type="submit" className="btn primary small" disabled={!text.trim() || !!busy}>
            Send
          </button>
        </form>
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}
