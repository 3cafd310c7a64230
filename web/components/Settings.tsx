'use client';
import { useEffect, useState, type FormEvent } from 'react';
import type { AutonomyLevel } from '../gql/graphql';
import { ApiError, describeError, request, usd } from '../lib/client';
import { SettingsDoc, UpdateSettingsDoc } from '../lib/documents';
import { useGql, useSession } from '../lib/hooks';
import { PageSkeleton } from './Shell';

const AUTONOMY: { value: AutonomyLevel; label: string; help: string }[] = [
  { value: 'MANUAL', label: 'Manual', help: 'Every paid action asks you first.' },
  { value: 'SUPERVISED', label: 'Supervised', help: 'Asks above the confirmation-free amounts below.' },
  { value: 'AUTONOMOUS', label: 'Autonomous', help: 'Within an approved plan budget, no per-action questions.' },
];

/** "2026-12-01" (a UTC day) → "Today", or "Mon, Nov 30". */
function dayLabel(day: string): string {
  if (day === new Date().toISOString().slice(0, 10)) return 'Today';
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

const toCents = (s: string) => Math.round(Number(s) * 100);
const toDollars = (c: number | null | undefined) => (c == null ? '' : (c / 100).toFixed(2));

/** Which model writes the plans and replies, and how to set one up (README: Configuration). */
function ModelSection({ offline }: { offline: boolean }) {
  return (
    <section className="model-section" id="model" aria-labelledby="model-h">
      <h2 id="model-h">Model</h2>
      {offline ? (
        <>
          <p>
            <strong>No AI model is set up.</strong> Atelier runs its offline model: it plans and answers with fixed rules and
            templates, so it cannot understand free-form requests the way a model would. Pictures and other results are still made.
          </p>
          <p>To use a model, whoever runs Atelier sets these before starting it, then restarts it:</p>
          <ul>
            <li>
              <code>OPENAI_API_KEY</code> — a key for OpenAI, or
            </li>
            <li>
              <code>OPENAI_BASE_URL</code> (and a key if it needs one) — any OpenAI-compatible server.
            </li>
          </ul>
          <p className="muted small">Details: the README, section “Configuration (environment)”.</p>
        </>
      ) : (
        <p>An AI model is set up: it plans the work and writes the replies.</p>
      )}
    </section>
  );
}

/** Minutes after midnight ⇄ "HH:MM" (the time input's value). */
const toClock = (m: number | null | undefined) => (m == null ? '' : `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
const fromClock = (v: string) => {
  const [h, m] = v.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};
const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['UTC'];
  } catch {
    return ['UTC'];
  }
})();

export function Settings() {
  const session = useSession();
  const { data, error, reload } = useGql(SettingsDoc, { workspaceId: session.workspaceId }, session.workspaceId);
  const s = data?.workspace.settings;
  const [autonomy, setAutonomy] = useState<AutonomyLevel>('SUPERVISED');
  const [perAction, setPerAction] = useState('');
  const [daily, setDaily] = useState('');
  const [cap, setCap] = useState('');
  const [atCap, setAtCap] = useState<'END' | 'PAUSE'>('END');
  const [zone, setZone] = useState('UTC');
  const [followUps, setFollowUps] = useState(false);
  const [quietFrom, setQuietFrom] = useState('');
  const [quietTo, setQuietTo] = useState('');
  const [base, setBase] = useState<number | null>(null);
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error' | 'conflict'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  function load(from: NonNullable<typeof s>) {
    setAutonomy(from.autonomy);
    setPerAction(toDollars(from.perActionFreeCents));
    setDaily(toDollars(from.dailyFreeCents));
    setCap(toDollars(from.taskBudgetCapCents));
    setAtCap(from.atBudgetCap);
    setZone(from.timeZone);
    setFollowUps(from.followUpsEnabled);
    setQuietFrom(toClock(from.quietFromMinute));
    setQuietTo(toClock(from.quietToMinute));
    setBase(from.version);
  }
  useEffect(() => {
    if (s && base === null) load(s);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [s]);

  const quietValid = (quietFrom === '') === (quietTo === '') && (quietFrom === '' || quietFrom !== quietTo);
  const valid = [perAction, daily].every((v) => v !== '' && Number(v) >= 0) && (cap === '' || Number(cap) > 0) && quietValid;

  async function save(e: FormEvent, force = false) {
    e.preventDefault();
    if (!quietValid) return setMsg({ kind: 'error', text: 'Quiet hours need a start and an end, and they cannot be the same time.' });
    if (!valid) return setMsg({ kind: 'error', text: 'Amounts must be zero or more (the cap, if set, more than zero).' });
    setBusy(true);
    setMsg(null);
    try {
      const r = await request(UpdateSettingsDoc, {
        input: {
          workspaceId: session.workspaceId,
          baseVersion: force ? (data?.workspace.settings.version ?? base) : base,
          autonomy,
          perActionFreeCents: toCents(perAction),
          dailyFreeCents: toCents(daily),
          ...(cap === '' ? { clearTaskBudgetCap: true } : { taskBudgetCapCents: toCents(cap) }),
          atBudgetCap: atCap,
          timeZone: zone,
          followUpsEnabled: followUps,
          ...(quietFrom === '' ? { clearQuietHours: true } : { quietFromMinute: fromClock(quietFrom), quietToMinute: fromClock(quietTo) }),
        },
      });
      setBase(r.updateWorkspaceSettings.settings.version);
      setMsg({ kind: 'ok', text: `Saved (version ${r.updateWorkspaceSettings.settings.version}).` });
      await reload();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFLICT') {
        await reload();
        setMsg({ kind: 'conflict', text: 'Someone changed these settings while you were editing. Load theirs, or save yours over them.' });
      } else setMsg({ kind: 'error', text: describeError(err) });
    } finally {
      setBusy(false);
    }
  }

  if (error && !data) return <p className="error pad" role="alert">{error}</p>;
  if (!s) return <PageSkeleton label="Loading settings…" />;
  const disabled = !session.isOwner;

  return (
    <div className="page narrow">
      <h1>Budget &amp; autonomy</h1>
      <p className="muted">Three separate settings decide when a paid action needs a person: the confirmation-free amounts, each task&apos;s approved plan budget, and the autonomy level.</p>
      {disabled && <p className="notice">Only the workspace owner can change these.</p>}
      <form className="settings-form" onSubmit={(e) => void save(e)}>
        <fieldset disabled={disabled || busy}>
          <legend>Autonomy</legend>
          {AUTONOMY.map((a) => (
            <label key={a.value} className="radio">
              <input type="radio" name="autonomy" value={a.value} checked={autonomy === a.value} onChange={() => setAutonomy(a.value)} />
              <span>
                <strong>{a.label}</strong> — {a.help}
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset disabled={disabled || busy}>
          <legend>Money</legend>
          <label>
            <span>Free per action (USD)</span>
            <input inputMode="decimal" type="number" min="0" step="0.01" value={perAction} onChange={(e) => setPerAction(e.target.value)} required />
          </label>
          <label>
            <span>Free per day (USD)</span>
            <input inputMode="decimal" type="number" min="0" step="0.01" value={daily} onChange={(e) => setDaily(e.target.value)} required />
          </label>
          <label>
            <span>Default cap per task (USD, empty = none)</span>
            <input inputMode="decimal" type="number" min="0" step="0.01" value={cap} onChange={(e) => setCap(e.target.value)} />
          </label>
        </fieldset>
        <fieldset disabled={disabled || busy} data-testid="at-cap">
          <legend>When a task reaches its cap</legend>
          <label className="radio">
            <input type="radio" name="atBudgetCap" value="END" checked={atCap === 'END'} onChange={() => setAtCap('END')} />
            <span>
              <strong>Stop the task</strong> — it ends where it is; nothing more is spent.
            </span>
          </label>
          <label className="radio">
            <input type="radio" name="atBudgetCap" value="PAUSE" checked={atCap === 'PAUSE'} onChange={() => setAtCap('PAUSE')} />
            <span>
              <strong>Pause and ask me</strong> — the task waits with a card; if you raise the cap it goes on exactly where it stopped.
            </span>
          </label>
        </fieldset>
        <fieldset disabled={disabled || busy}>
          <legend>Time and follow-ups</legend>
          <label>
            <span>Time zone (for schedules and quiet hours)</span>
            <input list="time-zones" value={zone} onChange={(e) => setZone(e.target.value)} required autoComplete="off" />
            <datalist id="time-zones">
              {ZONES.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </label>
          <label className="radio">
            <input type="checkbox" checked={followUps} onChange={(e) => setFollowUps(e.target.checked)} />
            <span>
              <strong>Let the agent follow up by itself</strong> — it may come back to a task later (to check a long job, or remind you of an open card). It never spends money without the usual approvals.
            </span>
          </label>
          <div className="quiet-hours">
            <label>
              <span>Quiet from</span>
              <input type="time" value={quietFrom} onChange={(e) => setQuietFrom(e.target.value)} />
            </label>
            <label>
              <span>until</span>
              <input type="time" value={quietTo} onChange={(e) => setQuietTo(e.target.value)} />
            </label>
          </div>
          <p className="muted small">During quiet hours follow-ups wait until they end. Leave both empty for none.</p>
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="btn primary" disabled={disabled || busy}>
            {busy ? 'Saving…' : 'Save settings'}
          </button>
          <span className="muted small">Version {base}</span>
        </div>
        {msg && (
          <div className={msg.kind === 'ok' ? 'ok' : 'error'} role={msg.kind === 'ok' ? 'status' : 'alert'} data-testid="settings-message">
            {msg.text}
            {msg.kind === 'conflict' && (
              <span className="inline-actions">
                <button type="button" className="btn secondary small" onClick={() => { load(data!.workspace.settings); setMsg(null); }}>
                  Load theirs
                </button>
                <button type="button" className="btn danger small" onClick={(e) => void save(e, true)}>
                  Save mine over theirs
                </button>
              </span>
            )}
          </div>
        )}
      </form>
      <ModelSection offline={session.offlineModel} />
      <section className="ledger" aria-labelledby="ledger-h">
        <h2 id="ledger-h">Spending, last 7 days</h2>
        <p className="muted small">
          Each paid result sets its price aside when it is ordered (on hold); when it is done the money is charged, or released
          if it failed or was cancelled.
        </p>
        {data.workspace.ledgerByDay.length ? (
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Charged</th>
                <th scope="col">On hold now</th>
                <th scope="col">Released</th>
              </tr>
            </thead>
            <tbody>
              {data.workspace.ledgerByDay.map((d) => (
                <tr key={d.day}>
                  <td>{dayLabel(d.day)}</td>
                  <td>{usd(d.chargedCents)}</td>
                  <td>{usd(d.onHoldCents)}</td>
                  <td>{usd(d.releasedCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">Nothing spent yet.</p>
        )}
      </section>
    </div>
  );
}
