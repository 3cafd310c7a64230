'use client';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { WebTasksQuery } from '../gql/graphql';
import { ApiError, describeError, newKey, request } from '../lib/client';
import { AnswerQuestionDoc, RerouteDoc, SendMessageDoc, ThreadDoc } from '../lib/documents';
import { useBusVersion } from '../lib/bus';
import { useGql, useSession, useThrottled } from '../lib/hooks';

type TaskRef = WebTasksQuery['workspace']['tasks']['edges'][number]['node'];

const OUTCOME: Record<string, string> = {
  ANSWER: 'answered here',
  CLARIFY: 'asked you which task',
  EXISTING_TASK: 'to task',
  LIGHTWEIGHT_TASK: 'quick task',
  NEW_TASK: 'new task',
};

/** Finished work a message may still be moved to (its line goes on in a next round). */
const RECENT_MS = 30 * 24 * 3600_000;
const recentlyFinished = (t: TaskRef) => Date.now() - Date.parse(t.updatedAt) < RECENT_MS;

export function Thread({ tasks, selectTask }: { tasks: TaskRef[]; selectTask: (id: string) => void }) {
  const session = useSession();
  const { data, error, reload } = useGql(ThreadDoc, { workspaceId: session.workspaceId }, session.workspaceId);
  const version = useBusVersion();
  const refresh = useThrottled(() => void reload(), 300);
  useEffect(() => refresh(), [version, refresh]);

  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const pendingKey = useRef<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  // On a phone only the latest messages show until asked (the page is the one scroll area).
  const [all, setAll] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);

  const messages = data?.workspace.mainThread.messages.edges.map((e) => e.node) ?? [];

  useLayoutEffect(() => {
    const el = list.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages.length]);

  async function send(input: { text: string }) {
    setSending(true);
    setSendError(null);
    // The same key on a retry: a message is never sent twice.
    pendingKey.current ??= newKey();
    try {
      const r = await request(SendMessageDoc, {
        input: { workspaceId: session.workspaceId, text: input.text, idempotencyKey: pendingKey.current },
      });
      pendingKey.current = null;
      setText('');
      atBottom.current = true;
      await reload();
      const taskId = r.sendMessage.task?.id ?? r.sendMessage.route.task?.id;
      if (taskId) selectTask(taskId);
    } catch (e) {
      setSendError(describeError(e));
    } finally {
      setSending(false);
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (text.trim() && !sending) void send({ text: text.trim() });
  }
  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      onSubmit(e);
    }
  }

  // A question's answer sends only the choice (a PICK): the server routes the message the question
  // asked about (its own words, never the button's label). One key per question and option, kept
  // across retries of the same click.
  const answerKeys = useRef(new Map<string, string>());
  async function answer(approvalId: string, optionId: string) {
    setSending(true);
    setSendError(null);
    const key = answerKeys.current.get(`${approvalId}:${optionId}`) ?? newKey();
    answerKeys.current.set(`${approvalId}:${optionId}`, key);
    try {
      const r = await request(AnswerQuestionDoc, { input: { approvalId, decision: 'PICK', choice: optionId, idempotencyKey: key } });
      await reload();
      const taskId = r.resolveApproval.approval.message?.route?.task?.id;
      if (taskId) selectTask(taskId);
    } catch (e) {
      // Answered meanwhile (another window): show the answer that stands.
      if (e instanceof ApiError && e.code === 'CONFLICT') await reload();
      setSendError(describeError(e));
    } finally {
      setSending(false);
    }
  }

  async function reroute(messageId: string, taskId: string) {
    try {
      await request(RerouteDoc, { messageId, taskId });
      setMoving(null);
      await reload();
      selectTask(taskId);
    } catch (e) {
      setSendError(describeError(e));
    }
  }

  return (
    <section className="thread" aria-labelledby="thread-h">
      <h2 id="thread-h" className="panel-title">Main thread</h2>
      {error && <p className="error" role="alert">{error}</p>}
      {!all && messages.length > 4 && (
        <button type="button" className="btn ghost small earlier" onClick={() => setAll(true)}>
          Show {messages.length - 4} earlier messages
        </button>
      )}
      <ol
        className={`messages${all ? ' all' : ''}`}
        ref={list}
        aria-live="polite"
        aria-label="Conversation"
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {!data && !error && (
          <li className="skeleton-msgs" aria-busy="true" data-testid="skeleton">
            <span className="sr-only">Loading the conversation…</span>
            <span className="skeleton-line w60 tall right" />
            <span className="skeleton-line w40 thin right" />
            <span className="skeleton-line w70 tall" />
          </li>
        )}
        {data && messages.length === 0 && <li className="muted empty">Say what you want to make. Atelier finds the right task for each message.</li>}
        {messages.map((m, idx) => {
          // A clarification card is shown once, as the assistant's reply that asks the question.
          const prev = messages[idx - 1];
          const next = messages[idx + 1];
          const inherited = m.role === 'ASSISTANT' && !m.approval && prev?.approval && prev.approval.title === m.text ? prev.approval : null;
          const card = inherited ?? (m.approval && !(next?.role === 'ASSISTANT' && !next.approval && next.text === m.approval.title) ? m.approval : null);
          const showText = !(card && m.role === 'ASSISTANT' && card.title === m.text);
          return (
          <li key={m.id} className={`msg msg-${m.role.toLowerCase()}`} data-testid="message">
            {showText && <div className="bubble">{m.text}</div>}
            {m.role === 'USER' && m.route && (
              <div className="route">
                <span className="chip" data-testid="route-chip" title={m.route.reason}>
                  {m.route.task ? (
                    <button type="button" className="linkish" onClick={() => selectTask(m.route!.task!.id)}>
                      → {m.route.task.title}
                    </button>
                  ) : (
                    OUTCOME[m.route.outcome] ?? m.route.outcome.toLowerCase()
                  )}
                  {m.delivery && <span className="delivery"> · {m.delivery.state.toLowerCase().replace('_', ' ')}</span>}
                </span>
                {session.canWrite && tasks.length > 0 && (
                  moving === m.id ? (
                    <label className="move">
                      <span className="sr-only">Move this message to</span>
                      <select
                        autoFocus
                        defaultValue=""
                        onChange={(e) => e.target.value && void reroute(m.id, e.target.value)}
                        onBlur={() => setMoving(null)}
                      >
                        <option value="" disabled>
                          Move to…
                        </option>
                        {tasks
                          .filter((t) => t.id !== m.route?.task?.id && (!t.isTerminal || recentlyFinished(t)))
                          .map((t) => (
                            <option key={t.id} value={t.id}>
                              {/* Moving a message to finished work starts its next round. */}
                              {t.isTerminal ? `${t.title} (finished: starts round ${t.round + 1})` : t.title}
                            </option>
                          ))}
                      </select>
                    </label>
                  ) : (
                    <button type="button" className="btn ghost tiny" onClick={() => setMoving(m.id)} aria-label={`Not right? Move. Re-route “${m.text.slice(0, 40)}”`}>
                      Not right? Move
                    </button>
                  )
                )}
              </div>
            )}
            {card && (
              <div className="card clarify" role="group" aria-label={card.title}>
                <p>{card.title}</p>
                <div className="options">
                  {card.options.map((o) => (
                    <button
                      key={o.id}
                      type="button"
                      className={`btn ${card.choice === o.id ? 'primary' : 'secondary'}`}
                      aria-pressed={card.choice === o.id}
                      disabled={card.status !== 'PENDING' || sending || !session.canApprove}
                      title={session.canApprove ? undefined : 'Answering needs the approve scope'}
                      onClick={() => void answer(card.id, o.id)}
                    >
                      {o.label}
                    </button>
                  ))}
                </div>
              </div>
            )}
          </li>
          );
        })}
      </ol>
      <form className="composer" onSubmit={onSubmit}>
        <label htmlFor="composer-text" className="sr-only">
          Message
        </label>
        <textarea
          id="composer-text"
          rows={2}
          placeholder={session.canWrite ? 'Write naturally — e.g. “make three retro posters for a coffee brand”' : 'You can read, but not write, in this workspace'}
          value={text}
          disabled={!session.canWrite}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKey}
        />
        <button type="submit" className="btn primary" disabled={!text.trim() || sending || !session.canWrite}>
          {sending ? 'Sending…' : 'Send'}
        </button>
      </form>
      {sendError && <p className="error" role="alert">{sendError}</p>}
    </section>
  );
}
