'use client';
// Schedules: messages and tasks that run later, once or again and again, in the workspace's time
// zone. The list says each one's "when" in plain words and its next run; the form asks what (a
// message, or a task) and when (once at a date and time, every day, every weekday, one day a week,
// or a cron expression for experts). Whoever made a schedule edits it; they or an owner pause,
// resume or delete it. Viewers only read.
import { useMemo, useState, type FormEvent } from 'react';
import type { ScheduleKind, WebScheduleFragment } from '../gql/graphql';
import { ApiError, describeError, request, usd } from '../lib/client';
import { CreateScheduleDoc, DeleteScheduleDoc, PauseScheduleDoc, ResumeScheduleDoc, SchedulesDoc, UpdateScheduleDoc } from '../lib/documents';
import { useGql, useSession } from '../lib/hooks';
import { PageSkeleton } from './Shell';

type Schedule = WebScheduleFragment;
type When = 'once' | 'daily' | 'weekdays' | 'weekly' | 'cron';

/** This page's layout (kept with the component: it stacks at phone width). */
const CSS = `
.schedule-list { list-style: none; padding: 0; margin: 0 0 1.5rem; }
.schedule { border: 1px solid var(--line); border-radius: 10px; padding: 0.75rem 0.9rem; margin: 0.75rem 0; background: #fff; overflow-wrap: anywhere; }
.schedule.paused { background: #faf8f4; }
.schedule-head { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
.schedule-head h3 { margin: 0; font-size: 1.05rem; }
.schedule-when { margin: 0.35rem 0 0.15rem; font-weight: 600; }
.schedule-text { margin: 0.25rem 0; white-space: pre-wrap; }
.schedule-form textarea { padding: 0.4rem 0.5rem; border: 1px solid #b9b2a6; border-radius: 6px; font: inherit; min-height: 4.5rem; resize: vertical; }
.schedule-form select { padding: 0.4rem 0.5rem; border: 1px solid #b9b2a6; border-radius: 6px; font: inherit; background: #fff; }
.schedule-form .row { display: flex; gap: 0.75rem; flex-wrap: wrap; }
.schedule-form .row > label { min-width: 9rem; }
.schedule-form .choices { display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
.schedule-form .choices label { flex: 0 1 auto; }
@media (max-width: 720px) { .schedule-form .row { flex-direction: column; } }
`;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WHEN_LABELS: { value: When; label: string }[] = [
  { value: 'once', label: 'Once' },
  { value: 'daily', label: 'Every day' },
  { value: 'weekdays', label: 'Every weekday (Mon–Fri)' },
  { value: 'weekly', label: 'Once a week' },
  { value: 'cron', label: 'Custom (cron, for experts)' },
];

const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['UTC'];
  } catch {
    return ['UTC'];
  }
})();

/** The wall-clock parts of an instant in a zone. */
function partsIn(at: number, timeZone: string): Record<string, number> {
  const f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return Object.fromEntries(f.formatToParts(new Date(at)).filter((p) => p.type !== 'literal').map((p) => [p.type, Number(p.value)]));
}

/** A date and a wall time in a zone ("2026-06-12", "09:00", "Europe/Berlin") → the instant. */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  const wall = Date.UTC(y!, m! - 1, d!, h!, mi!);
  const offset = (at: number) => {
    const p = partsIn(at, timeZone);
    return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - at;
  };
  // Twice: the zone's offset at the first guess may differ from the offset at the answer (DST).
  const guess = wall - offset(wall);
  return new Date(wall - offset(guess));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the date and time inputs show it, in a zone. */
function wallParts(iso: string, timeZone: string): { date: string; time: string } {
  const p = partsIn(Date.parse(iso), timeZone);
  return { date: `${p.year}-${pad(p.month!)}-${pad(p.day!)}`, time: `${pad(p.hour!)}:${pad(p.minute!)}` };
}

/** "Mon, Jun 15, 9:00 AM", in the schedule's zone. */
function when(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleString(undefined, { timeZone, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

function fromNow(iso: string): string {
  const mins = Math.round((Date.parse(iso) - Date.now()) / 60_000);
  if (mins < 1) return 'any moment now';
  if (mins < 60) return `in ${mins} min`;
  const hours = Math.round(mins / 60);
  if (hours < 36) return `in ${hours} h`;
  return `in ${Math.round(hours / 24)} days`;
}

type Draft = { kind: ScheduleKind; title: string; text: string; when: When; date: string; time: string; weekday: number; cron: string; timeZone: string; cap: string };

function draftOf(s: Schedule | null, zone: string): Draft {
  const tomorrow = new Date(Date.now() + 86_400_000);
  const base: Draft = { kind: 'MESSAGE', title: '', text: '', when: 'weekly', date: wallParts(tomorrow.toISOString(), zone).date, time: '09:00', weekday: 1, cron: '0 9 * * 1', timeZone: zone, cap: '' };
  if (!s) return base;
  const d: Draft = { ...base, kind: s.kind, title: s.title, text: s.text, timeZone: s.timeZone, cap: s.budgetCapCents == null ? '' : (s.budgetCapCents / 100).toFixed(2) };
  if (s.runAt) return { ...d, when: 'once', ...wallParts(s.runAt, s.timeZone) };
  const m = /^(\d{1,2}) (\d{1,2}) \* \* (\*|1-5|[0-7])$/.exec(s.cron ?? '');
  if (!m) return { ...d, when: 'cron', cron: s.cron ?? '' };
  const time = `${pad(Number(m[2]))}:${pad(Number(m[1]))}`;
  if (m[3] === '*') return { ...d, when: 'daily', time, cron: s.cron! };
  if (m[3] === '1-5') return { ...d, when: 'weekdays', time, cron: s.cron! };
  return { ...d, when: 'weekly', time, weekday: Number(m[3]) % 7, cron: s.cron! };
}

/** The "when" of a draft as the API takes it: a cron expression, or the one instant. */
function whenOf(d: Draft): { cron: string } | { runAt: string } {
  const [h, m] = d.time.split(':').map(Number);
  switch (d.when) {
    case 'once':
      return { runAt: zonedInstant(d.date, d.time, d.timeZone).toISOString() };
    case 'daily':
      return { cron: `${m} ${h} * * *` };
    case 'weekdays':
      return { cron: `${m} ${h} * * 1-5` };
    case 'weekly':
      return { cron: `${m} ${h} * * ${d.weekday}` };
    case 'cron':
      return { cron: d.cron.trim() };
  }
}

function ScheduleForm({ editing, zone, onDone }: { editing: Schedule | null; zone: string; onDone: () => Promise<void> | void }) {
  const { workspaceId } = useSession();
  const [d, setD] = useState<Draft>(() => draftOf(editing, zone));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((x) => ({ ...x, [k]: v }));
  const id = editing ? `edit-${editing.id}` : 'new';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const cap = d.kind === 'TASK' && d.cap.trim() !== '' ? Math.round(Number(d.cap) * 100) : null;
      const common = { kind: d.kind, text: d.text, ...(d.title.trim() ? { title: d.title.trim() } : {}), timeZone: d.timeZone.trim(), ...whenOf(d) };
      if (editing) {
        await request(UpdateScheduleDoc, {
          input: { scheduleId: editing.id, expectedVersion: editing.version, ...common, ...(cap === null ? (d.kind === 'TASK' ? { clearBudgetCap: true } : {}) : { budgetCapCents: cap }) },
        });
      } else {
        await request(CreateScheduleDoc, { input: { workspaceId, ...common, ...(cap === null ? {} : { budgetCapCents: cap }) } });
        // A fresh form for the next one, still for the same kind of thing.
        setD({ ...draftOf(null, zone), kind: d.kind });
      }
      await onDone();
    } catch (err) {
      setError(
        err instanceof ApiError && err.code === 'CONFLICT'
          ? 'Someone changed this schedule while you were editing it. Cancel to see their change, then edit again.'
          : describeError(err),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="settings-form schedule-form" onSubmit={(e) => void submit(e)} aria-label={editing ? `Edit “${editing.title}”` : 'New schedule'} data-testid={editing ? 'schedule-edit-form' : 'schedule-form'}>
      <fieldset disabled={busy}>
        <legend>What</legend>
        <div className="choices" role="radiogroup" aria-label="What it does">
          <label className="radio">
            <input type="radio" name={`${id}-kind`} checked={d.kind === 'MESSAGE'} onChange={() => set('kind', 'MESSAGE')} />
            <span>Send a message (to your main thread, as if you wrote it)</span>
          </label>
          <label className="radio">
            <input type="radio" name={`${id}-kind`} checked={d.kind === 'TASK'} onChange={() => set('kind', 'TASK')} />
            <span>Start a task</span>
          </label>
        </div>
        <label>
          <span>{d.kind === 'MESSAGE' ? 'Message' : 'What the task should do'}</span>
          <textarea value={d.text} onChange={(e) => set('text', e.target.value)} required maxLength={20000} placeholder={d.kind === 'MESSAGE' ? 'Write a social post from last week’s results' : 'Make three posters for Friday’s show'} />
        </label>
        <label>
          <span>Name (optional)</span>
          <input value={d.title} onChange={(e) => set('title', e.target.value)} maxLength={200} placeholder="The first line of the text" />
        </label>
        {d.kind === 'TASK' && (
          <label>
            <span>Budget cap per run (USD, empty = the workspace’s default)</span>
            <input inputMode="decimal" type="number" min="0" step="0.01" value={d.cap} onChange={(e) => set('cap', e.target.value)} />
          </label>
        )}
      </fieldset>
      <fieldset disabled={busy}>
        <legend>When</legend>
        <div className="choices" role="radiogroup" aria-label="How often">
          {WHEN_LABELS.map((w) => (
            <label key={w.value} className="radio">
              <input type="radio" name={`${id}-when`} checked={d.when === w.value} onChange={() => set('when', w.value)} />
              <span>{w.label}</span>
            </label>
          ))}
        </div>
        <div className="row">
          {d.when === 'once' && (
            <label>
              <span>Date</span>
              <input type="date" value={d.date} onChange={(e) => set('date', e.target.value)} required />
            </label>
          )}
          {d.when === 'weekly' && (
            <label>
              <span id={`${id}-day`}>Day</span>
              {/* Named by its caption alone (a wrapping label would add the options' text to the name). */}
              <select aria-labelledby={`${id}-day`} value={d.weekday} onChange={(e) => set('weekday', Number(e.target.value))}>
                {[1, 2, 3, 4, 5, 6, 0].map((n) => (
                  <option key={n} value={n}>
                    {WEEKDAYS[n]}
                  </option>
                ))}
              </select>
            </label>
          )}
          {d.when !== 'cron' && (
            <label>
              <span>Time</span>
              <input type="time" value={d.time} onChange={(e) => set('time', e.target.value)} required />
            </label>
          )}
          {d.when === 'cron' && (
            <label>
              <span>Cron expression (minute hour day month weekday)</span>
              <input value={d.cron} onChange={(e) => set('cron', e.target.value)} required autoCapitalize="none" autoCorrect="off" spellCheck={false} placeholder="0 9 * * 1" />
            </label>
          )}
          <label>
            <span>Time zone</span>
            <input list="schedule-zones" value={d.timeZone} onChange={(e) => set('timeZone', e.target.value)} required autoComplete="off" />
          </label>
        </div>
        {d.when === 'cron' && <p className="muted small">Five fields: “0 9 * * 1” is Mondays at 09:00, “30 8 * * 1-5” weekdays at 08:30, “0 7 1 * *” the 1st of every month at 07:00.</p>}
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? 'Saving…' : editing ? 'Save changes' : 'Create schedule'}
        </button>
        {editing && (
          <button type="button" className="btn secondary" disabled={busy} onClick={() => void onDone()}>
            Cancel
          </button>
        )}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function ScheduleItem({ s, mine, canManage, zone, reload }: { s: Schedule; mine: boolean; canManage: boolean; zone: string; reload: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const last = s.runs[0];

  async function run(work: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(describeError(err));
    } finally {
      await reload();
      setBusy(false);
    }
  }

  const headingId = `schedule-${s.id.replace(/[^A-Za-z0-9]/g, '')}`;
  return (
    <li className={`schedule${s.paused ? ' paused' : ''}`} aria-labelledby={headingId} data-testid="schedule" data-paused={s.paused ? 'true' : 'false'}>
      <div className="schedule-head">
        <h3 id={headingId}>{s.title}</h3>
        <span className="chip">{s.kind === 'MESSAGE' ? 'Message' : 'Task'}</span>
        {s.paused && <span className="chip">Paused</span>}
      </div>
      <p className="schedule-when" data-testid="schedule-description">
        {s.description}
      </p>
      <p className="small" data-testid="schedule-next" data-next-run={s.nextRunAt ?? ''}>
        {s.paused
          ? 'Paused: nothing runs until it is resumed.'
          : s.nextRunAt
            ? `Next run: ${when(s.nextRunAt, s.timeZone)} (${fromNow(s.nextRunAt)})`
            : 'Nothing left to run.'}
      </p>
      {last && (
        <p className="muted small">
          Last run: {when(last.slotAt, s.timeZone)}
          {last.missedSlots > 0 && ` (${last.missedSlots} earlier ${last.missedSlots === 1 ? 'run was' : 'runs were'} missed while Atelier was down)`}
          {last.task && (
            <>
              {' — '}
              <a href={`/?task=${encodeURIComponent(last.task.id)}`}>{last.task.title}</a>
            </>
          )}
        </p>
      )}
      <p className="schedule-text muted">{s.text}</p>
      <p className="muted small">
        By {s.createdBy?.name ?? 'someone who left'}
        {s.kind === 'TASK' && ` · budget cap per run: ${s.budgetCapCents == null ? 'the workspace’s default' : usd(s.budgetCapCents)}`}
      </p>
      {(canManage || mine) && !editing && (
        <div className="inline-actions">
          {s.paused ? (
            <button type="button" className="btn secondary small" disabled={busy} onClick={() => void run(() => request(ResumeScheduleDoc, { input: { scheduleId: s.id } }))}>
              Resume
            </button>
          ) : (
            <button type="button" className="btn secondary small" disabled={busy} onClick={() => void run(() => request(PauseScheduleDoc, { input: { scheduleId: s.id } }))}>
              Pause
            </button>
          )}
          {mine && (
            <button type="button" className="btn secondary small" disabled={busy} onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          <button
            type="button"
            className="btn danger small"
            disabled={busy}
            onClick={() => {
              if (window.confirm(`Delete “${s.title}”? Nothing more will run. What it already made stays.`)) void run(() => request(DeleteScheduleDoc, { input: { scheduleId: s.id } }));
            }}
          >
            Delete
          </button>
        </div>
      )}
      {editing && (
        <ScheduleForm
          editing={s}
          zone={zone}
          onDone={async () => {
            setEditing(false);
            await reload();
          }}
        />
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

export function Schedules() {
  const session = useSession();
  const { data, error, reload } = useGql(SchedulesDoc, { workspaceId: session.workspaceId }, session.workspaceId);
  const zone = data?.workspace.settings.timeZone ?? 'UTC';
  const schedules = useMemo(() => data?.workspace.schedules ?? [], [data]);
  const me = data?.viewer.user.id;

  if (error && !data) return <p className="error pad" role="alert">{error}</p>;
  if (!data) return <PageSkeleton label="Loading schedules…" />;
  return (
    <div className="page narrow">
      <style>{CSS}</style>
      <h1>Schedules</h1>
      <p className="muted">
        Messages and tasks that run later — once, or again and again — in the workspace’s time zone ({zone}). A scheduled message is sent as
        yours and goes where any message of yours would; a scheduled task is an ordinary task with its own approvals. If Atelier was down when
        one was due, it runs once when Atelier is back.
      </p>
      <datalist id="schedule-zones">
        {ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <section aria-labelledby="schedules-h">
        <h2 id="schedules-h">Scheduled</h2>
        {schedules.length ? (
          <ul className="schedule-list">
            {schedules.map((s) => (
              <ScheduleItem key={`${s.id}:${s.version}`} s={s} mine={s.createdBy?.id === me && session.canWrite} canManage={session.isOwner && session.canWrite} zone={zone} reload={reload} />
            ))}
          </ul>
        ) : (
          <p className="muted">Nothing scheduled yet.</p>
        )}
      </section>
      <section aria-labelledby="new-schedule-h">
        <h2 id="new-schedule-h">Schedule something</h2>
        {session.canWrite ? (
          <ScheduleForm editing={null} zone={zone} onDone={reload} />
        ) : (
          <p className="notice">You can see the schedules, but not make or change them.</p>
        )}
      </section>
    </div>
  );
}
