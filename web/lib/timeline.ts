// A task's events as a readable timeline of milestones (the raw log stays behind a toggle).
/** A delivery's text with its links read as their names ("[Poster 1](object:…)" → "Poster 1"). */
const REF = '(?:job|object):(?:[0-9a-f-]{36}|[A-Za-z0-9+/]{20,}={0,2})';
const plainText = (text: string) => text.replace(new RegExp(`\\[([^\\]]{1,200})\\]\\(${REF}\\)`, 'g'), '$1').replace(new RegExp(`\\b${REF}(?![A-Za-z0-9+/=])`, 'g'), 'a result');

export type TaskEventView = {
  seq: number;
  type: string;
  occurredAt: string;
  redacted: boolean;
  payload?: unknown;
  actor: { kind: string; user?: { name: string } | null };
};

// A time ahead in plain words, in the reader's own time zone: "today 18:30", "tomorrow 09:00",
// "Friday 09:00" within the week, "Fri 12 June 09:00" beyond it.
const DAY_MS = 86_400_000;

const clockTime = (d: Date) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

export function whenAhead(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  // Whole calendar days apart in the reader's zone (a DST night has 23 or 25 hours: round).
  const days = Math.round((dayStart(d) - dayStart(now)) / DAY_MS);
  if (days === 0) return `today ${clockTime(d)}`;
  if (days === 1) return `tomorrow ${clockTime(d)}`;
  if (days > 1 && days < 7) return `${new Intl.DateTimeFormat('en-GB', { weekday: 'long' }).format(d)} ${clockTime(d)}`;
  const date = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'long', ...(d.getFullYear() !== now.getFullYear() ? { year: 'numeric' } : {}) }).format(d).replace(',', '');
  return `${date} ${clockTime(d)}`;
}

export type Milestone = { seq: number; at: string; text: string; tone: 'info' | 'good' | 'warn' | 'bad' | 'you' };

const STATUS_WORDS: Record<string, string> = {
  QUEUED: 'queued',
  RUNNING: 'working',
  WAITING: 'waiting',
  PAUSED: 'paused',
  COMPLETED: 'finished',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  BUDGET_EXCEEDED: 'stopped at the budget cap',
};

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const clip = (s: string, n = 140) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function statusWord(s: string) {
  return STATUS_WORDS[s] ?? s.toLowerCase();
}

const CARD_WORDS: Record<string, string> = { PLAN: 'the plan card', CHECKPOINT: 'the question', PAID_ACTION: 'the price card', BUDGET_CAP: 'the budget cap card' };
const INSTRUCTION_WORDS: Record<string, string> = { REVISE: 'your revision', ADD_CONTEXT: 'the context you added', MESSAGE: 'your message' };

export type MilestoneContext = { choiceLabel?: (approvalId: string, choice: string) => string | undefined };

export function milestone(e: TaskEventView, ctx: MilestoneContext = {}): Milestone | null {
  const p = (e.payload ?? {}) as Record<string, unknown>;
  const who = e.actor.kind === 'USER' ? (e.actor.user?.name ?? 'You') : e.actor.kind === 'AGENT' ? 'The agent' : 'Atelier';
  const m = (text: string, tone: Milestone['tone'] = 'info'): Milestone => ({ seq: e.seq, at: e.occurredAt, text, tone });
  switch (e.type) {
    case 'TASK_CREATED':
      // A fork's start is said by its TASK_FORKED, right after.
      if (str(p.forkedFromId)) return null;
      // A next round of a line of work says so: it continues the earlier rounds' results.
      if (Number(p.round) > 1) return m(`Round ${str(p.round)} started: continues the earlier round${Number(p.round) > 2 ? 's' : ''}`);
      return m(`Task started${str(p.title) ? `: ${clip(str(p.title))}` : ''}`);
    case 'MESSAGE_RECEIVED':
      return m(`${who === 'Atelier' ? 'A message' : `${who}:`} “${clip(str(p.text) || 'message')}”`, 'you');
    case 'CHECKLIST_UPDATED': {
      const items = Array.isArray(p.items) ? (p.items as { status?: string }[]) : [];
      const done = items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').length;
      const reason = str(p.reason);
      if (reason === 'plan' || /^plan/i.test(reason)) return m(`Plan (version ${str(p.version)}): ${items.length} steps`);
      if (/^result for/.test(reason)) return null; // shown by the result itself
      return m(`Checklist: ${done} of ${items.length} steps done${reason ? ` (${clip(reason, 60)})` : ''}`, done === items.length && items.length ? 'good' : 'info');
    }
    case 'APPROVAL_REQUESTED':
      return m(`Needs your decision: ${clip(str(p.title) || 'approval')}`, 'warn');
    case 'APPROVAL_RESOLVED': {
      const d = str(p.status || p.decision);
      if (d === 'SUPERSEDED') {
        // The person's own instruction answered the card: say which card, and that the task goes on with it.
        const instruction = (p.instruction ?? {}) as Record<string, unknown>;
        const how = INSTRUCTION_WORDS[str(instruction.kind)] ?? 'your instruction';
        const what = CARD_WORDS[str(p.kind)] ?? 'the open question';
        const said = str(instruction.text);
        return m(`Set aside ${what}: ${how}${said ? ` (“${clip(said, 80)}”)` : ''} came first — going on with it`, 'you');
      }
      const choice = str(p.choice) ? (ctx.choiceLabel?.(str(p.approvalId), str(p.choice)) ?? str(p.choice)) : '';
      return m(`${d === 'REJECTED' ? 'Declined' : d === 'CANCELLED' ? 'Withdrawn' : 'Approved'}${choice ? `: ${clip(choice, 60)}` : ''}`, d === 'REJECTED' ? 'bad' : 'good');
    }
    case 'JOB_SUBMITTED':
      return m(`Generation started${str(p.kind) ? ` (${str(p.kind).toLowerCase()})` : ''}`);
    case 'JOB_SUCCEEDED':
      return m('A result is ready', 'good');
    case 'JOB_FAILED':
      return m(`A generation failed${str(p.error) ? `: ${clip(str(p.error), 80)}` : ''}`, 'bad');
    case 'TASK_STATUS_CHANGED': {
      const to = str(p.to || p.status);
      const reason = str(p.reason);
      if (!to) return null;
      return m(`Now ${statusWord(to)}${reason ? ` — ${clip(reason, 90)}` : ''}`, to === 'COMPLETED' ? 'good' : to === 'FAILED' || to === 'CANCELLED' || to === 'BUDGET_EXCEEDED' ? 'bad' : to === 'PAUSED' ? 'warn' : 'info');
    }
    case 'SIGNAL_RECEIVED':
      return m(`${who} sent ${str(p.signal).toLowerCase().replace('_', ' ') || 'a signal'}${str(p.text || p.reason) ? `: “${clip(str(p.text || p.reason), 80)}”` : ''}`, 'you');
    case 'TASK_DELIVERED':
      // The delivery names its results as links ("[Poster 1](object:…)"): the timeline reads the names.
      return m(str(p.summary) ? clip(plainText(str(p.summary)).split('\n')[0]!, 200) : 'Delivered', 'good');
    case 'CONTINUATION_DECIDED': {
      const d = str(p.decision);
      if (d === 'next') return null;
      return m(`${d === 'complete' ? 'Done' : d === 'suspend' ? 'Waiting for results' : d === 'card' ? 'Asking you' : d === 'stop' ? 'Stopped' : 'Next'}${str(p.reason) ? ` — ${clip(str(p.reason), 90)}` : ''}`, d === 'stop' ? 'warn' : 'info');
    }
    case 'TASK_FORKED':
      return m(`${who === 'Atelier' ? 'A' : `${who} tried a`} different direction from step ${str(p.atStep)}${str(p.stepTitle) ? ` (“${clip(str(p.stepTitle), 60)}”)` : ''}: “${clip(str(p.edit), 120)}”${str(p.pickLabel) ? `, picking “${clip(str(p.pickLabel), 60)}”` : ''} — the steps before it are shared with the original`, 'you');
    case 'TASK_MERGED':
    case 'TASK_MERGED_IN':
      return m('Merged with another task');
    case 'TASK_PROMOTED':
      return m('Kept as a persistent task');
    case 'TOOL_CALL_DENIED': {
      // Said plainly: what the agent tried, that it was not allowed, and why.
      const reason = str(p.reason);
      return m(`The agent was not allowed to use “${str(p.tool) || 'a tool'}”${reason ? ` — ${clip(reason, 140)}` : ''}`, 'warn');
    }
    case 'EGRESS_DENIED': {
      const where = str(p.host) ? `${str(p.host)}${p.port ? `:${String(p.port)}` : ''}` : 'a host';
      return m(`A call to ${where} was stopped${str(p.reason) ? ` — ${clip(str(p.reason), 140)}` : ''}`, 'warn');
    }
    case 'REMOTE_AGENT_ANSWERED':
      return m(`The remote agent “${str(p.agent) || 'agent'}” answered (${(str(p.state) || 'done').toLowerCase().replace('_', ' ')})${str(p.text) ? `: ${clip(str(p.text), 140)}` : ''}`);
    case 'TURN_INTERRUPTED': {
      const n = Array.isArray(p.skipped) ? p.skipped.length : 0;
      const skipped = n ? `skipped ${n} planned action${n === 1 ? '' : 's'}` : 'nothing left to skip';
      return m(str(p.policy) === 'ROLLBACK' ? `Started over with your message: ${skipped}` : `Stopped to read your message first: ${skipped}`, 'you');
    }
    case 'MEMORY_UNAVAILABLE':
      return m('Went on without what is remembered: memory did not answer in time', 'warn');
    case 'FOLLOW_UP_SCHEDULED':
      return m(`The agent will check again ${str(p.wakeAt) ? whenAhead(str(p.wakeAt), new Date(e.occurredAt)) : 'later'}${p.deferred === true ? ' (after quiet hours)' : ''}: “${clip(str(p.reason), 120)}”`);
    case 'FOLLOW_UP_DEFERRED':
      return m(`A follow-up fell in quiet hours: moved to ${str(p.wakeAt) ? whenAhead(str(p.wakeAt), new Date(e.occurredAt)) : 'their end'}`);
    case 'FOLLOW_UP_FIRED':
      return m(`The agent came back to check${str(p.reason) ? `: “${clip(str(p.reason), 120)}”` : ''}${p.woke === false ? ' — it reads this when the task goes on' : ''}`);
    case 'FOLLOW_UP_CANCELLED':
      return m(`${e.actor.kind === 'USER' ? `${who} cancelled a follow-up` : 'Follow-up cancelled'}${str(p.reason) ? `: “${clip(str(p.reason), 100)}”` : ''}${e.actor.kind !== 'USER' && str(p.note) ? ` — ${clip(str(p.note), 80)}` : ''}`, 'warn');
    default:
      return null;
  }
}
