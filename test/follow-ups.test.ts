// Follow-ups the agent asks for (follow_up_at): the quiet-hours rules (pure, DST-correct); the tool
// records once per call key and refuses when the workspace has not opted in; a wake survives a
// server restart and a lost queue job and wakes the task exactly once; a cancelled follow-up never
// wakes; quiet hours defer a wake, at scheduling and at firing; and a woken turn is an ordinary turn
// whose paid action waits for a person's approval with nothing charged.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import pg from 'pg';
import { createApp, type App } from '../server/app.ts';
import type { Viewer } from '../server/auth/viewer.ts';
import { followUpInboxText, followUpWake, isQuiet, resolveDueAt, wakeTimeFor, type QuietHours } from '../server/domain/follow-ups.ts';
import { decideContinuation } from '../server/domain/continuation.ts';
import { createLogger } from '../server/log.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import type { ToolContext } from '../server/runtime/tools/types.ts';
import { resolveApproval } from '../server/services/approvals/resolve-approval.ts';
import { fireFollowUp } from '../server/services/follow-ups/wake.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { FOLLOW_UP_QUEUE, sendFollowUpJob } from '../server/store/follow-ups.ts';
import { graphql } from './gql/index.ts';
import { seedWorkspace, startTestApp, testConfig, type Seeded, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { createTestDatabase } from './helpers/db.ts';
import { waitFor } from './helpers/wait.ts';

const TaskFollowUps = graphql(`
  query TestTaskFollowUps($id: ID!) {
    task(id: $id) {
      id
      status
      followUps { id reason dueAt wakeAt deferred status firedAt cancelledAt cancelledBy { id } task { id } }
      pending: followUps(statuses: [PENDING]) { id }
    }
  }
`);
const CancelFollowUp = graphql(`
  mutation TestCancelFollowUp($input: CancelFollowUpInput!) {
    cancelFollowUp(input: $input) { followUp { id status cancelledAt cancelledBy { id } } }
  }
`);
const FollowUpNode = graphql(`
  query TestFollowUpNode($id: ID!) { node(id: $id) { id ... on FollowUp { reason status } } }
`);
const FollowUpEvents = graphql(`
  query TestFollowUpEvents($id: ID!) {
    task(id: $id) {
      events(types: [FOLLOW_UP_SCHEDULED, FOLLOW_UP_FIRED, FOLLOW_UP_CANCELLED, FOLLOW_UP_DEFERRED]) {
        edges { node { type ... on FollowUpScheduledEvent { followUpId reason dueAt wakeAt deferred } ... on FollowUpFiredEvent { followUpId woke inboxItemId } ... on FollowUpCancelledEvent { followUpId note } } }
      }
    }
  }
`);

const MINUTE = 60_000;
const at = (s: string) => new Date(s);
const iso = (d: Date) => d.toISOString();
const berlin = (from: string, to: string): QuietHours => ({ timeZone: 'Europe/Berlin', fromMinute: minutes(from), toMinute: minutes(to) });
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
const wallIn = (d: Date, zone: string) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);

// ---------------------------------------------------------------------------------------------
describe('quiet hours (pure)', () => {
  test('no quiet hours, or a range of no length: the wake is the due time', () => {
    const due = at('2026-01-15T22:30:00Z');
    assert.equal(iso(wakeTimeFor(due, { timeZone: 'Europe/Berlin', fromMinute: null, toMinute: null })), iso(due));
    assert.equal(iso(wakeTimeFor(due, { timeZone: 'Europe/Berlin', fromMinute: 600, toMinute: null })), iso(due), 'one end only is no range');
    assert.equal(iso(wakeTimeFor(due, berlin('23:30', '23:30'))), iso(due), 'from = to is no range, never a whole day');
  });

  test('a range within a day: inside waits for its end, its start counts as inside, its end does not', () => {
    const q: QuietHours = { timeZone: 'UTC', fromMinute: minutes('12:00'), toMinute: minutes('14:00') };
    assert.equal(iso(wakeTimeFor(at('2026-05-04T13:10:00Z'), q)), '2026-05-04T14:00:00.000Z');
    assert.equal(iso(wakeTimeFor(at('2026-05-04T12:00:00Z'), q)), '2026-05-04T14:00:00.000Z');
    assert.equal(iso(wakeTimeFor(at('2026-05-04T13:59:59.500Z'), q)), '2026-05-04T14:00:00.000Z');
    assert.equal(iso(wakeTimeFor(at('2026-05-04T11:59:59Z'), q)), '2026-05-04T11:59:59.000Z');
    assert.equal(iso(wakeTimeFor(at('2026-05-04T14:00:00Z'), q)), '2026-05-04T14:00:00.000Z');
  });

  test('a range across midnight ends the next morning from the evening, the same morning after midnight', () => {
    const q = berlin('22:00', '07:00');
    // Winter: Berlin is UTC+1.
    assert.equal(iso(wakeTimeFor(at('2026-01-15T22:30:00Z'), q)), '2026-01-16T06:00:00.000Z', '23:30 → 07:00 the next day');
    assert.equal(iso(wakeTimeFor(at('2026-01-16T02:00:00Z'), q)), '2026-01-16T06:00:00.000Z', '03:00 → 07:00 the same day');
    assert.equal(iso(wakeTimeFor(at('2026-01-15T20:59:00Z'), q)), '2026-01-15T20:59:00.000Z', '21:59 is before them');
    // Summer: UTC+2, so 07:00 is 05:00 UTC.
    assert.equal(iso(wakeTimeFor(at('2026-07-10T21:00:00Z'), q)), '2026-07-11T05:00:00.000Z');
    // Half-hour offsets: Kolkata is UTC+5:30.
    assert.equal(iso(wakeTimeFor(at('2026-07-10T12:00:00Z'), { timeZone: 'Asia/Kolkata', fromMinute: minutes('17:00'), toMinute: minutes('18:15') })), '2026-07-10T12:45:00.000Z');
  });

  test('the nights the clocks change: the end is 07:00 on the wall, not a fixed number of hours later', () => {
    const q = berlin('22:00', '07:00');
    // 28→29 March 2026 the clocks go forward (02:00 → 03:00): 23:00 CET to 07:00 CEST is 7 hours.
    const spring = wakeTimeFor(at('2026-03-28T22:00:00Z'), q);
    assert.equal(iso(spring), '2026-03-29T05:00:00.000Z');
    assert.equal(wallIn(spring, 'Europe/Berlin'), '07:00');
    // 24→25 October 2026 they go back (03:00 → 02:00): 23:00 CEST to 07:00 CET is 9 hours.
    const fall = wakeTimeFor(at('2026-10-24T21:00:00Z'), q);
    assert.equal(iso(fall), '2026-10-25T06:00:00.000Z');
    assert.equal(wallIn(fall, 'Europe/Berlin'), '07:00');
  });

  test('an end the clocks skip is the first instant after the gap; an end they repeat is its first occurrence not before the due time', () => {
    // 29 March 2026, Berlin: 02:00–03:00 does not exist; quiet until 02:30 ends when the clocks jump.
    const gap = wakeTimeFor(at('2026-03-29T00:30:00Z'), berlin('01:00', '02:30'));
    assert.equal(iso(gap), '2026-03-29T01:00:00.000Z');
    assert.equal(wallIn(gap, 'Europe/Berlin'), '03:00');
    assert.equal(isQuiet(gap, berlin('01:00', '02:30')), false);
    // 25 October 2026, Berlin: 02:00–03:00 happens twice. Due at 01:00 CEST → the first 02:30 (CEST).
    assert.equal(iso(wakeTimeFor(at('2026-10-24T23:00:00Z'), berlin('00:00', '02:30'))), '2026-10-25T00:30:00.000Z');
    // Due at the second 02:00 (CET, after the clocks went back): the 02:30 still ahead is the CET one.
    assert.equal(iso(wakeTimeFor(at('2026-10-25T01:00:00Z'), berlin('01:00', '02:30'))), '2026-10-25T01:30:00.000Z');
  });

  test('invariant over a year of due times: never before the due time, never inside the quiet hours', () => {
    for (const [zone, from, to] of [['Europe/Berlin', '22:00', '07:00'], ['America/New_York', '01:30', '02:30'], ['Australia/Lord_Howe', '23:00', '01:45'], ['Asia/Kolkata', '09:00', '17:30']] as const) {
      const q: QuietHours = { timeZone: zone, fromMinute: minutes(from), toMinute: minutes(to) };
      for (let t = Date.parse('2026-01-01T00:00:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 7 * 60 * MINUTE + 13 * MINUTE) {
        const due = new Date(t);
        const wake = wakeTimeFor(due, q);
        assert.ok(wake >= due, `${zone} ${iso(due)}: ${iso(wake)} is not before it`);
        assert.ok(!isQuiet(wake, q), `${zone} ${iso(due)}: ${iso(wake)} (${wallIn(wake, zone)}) is outside ${from}–${to}`);
        if (!isQuiet(due, q)) assert.equal(wake.getTime(), t, 'outside: unchanged');
        else assert.ok(wake.getTime() - t <= 24 * 60 * MINUTE, 'inside: within a day');
      }
    }
  });

  test('when a follow-up may be due, and what a wake does to its task', () => {
    const now = at('2026-06-01T10:00:00Z');
    assert.deepEqual(resolveDueAt({ inMinutes: 30 }, now), { dueAt: at('2026-06-01T10:30:00Z') });
    assert.deepEqual(resolveDueAt({ at: '2026-06-05T09:00:00+02:00' }, now), { dueAt: at('2026-06-05T07:00:00Z') });
    assert.match((resolveDueAt({ at: '2026-06-01T09:59:00Z' }, now) as { problem: string }).problem, /is in the past/);
    assert.match((resolveDueAt({ at: '2026-09-01T10:00:01Z' }, now) as { problem: string }).problem, /more than 90 days ahead/);
    assert.ok('dueAt' in resolveDueAt({ at: '2026-08-30T10:00:00Z' }, now), '90 days is allowed');
    assert.equal(followUpWake('CANCELLED', 0), 'cancel');
    assert.equal(followUpWake('COMPLETED', 0), 'cancel');
    assert.equal(followUpWake('PAUSED', 0), 'deliver', 'a follow-up never resumes a paused task');
    assert.equal(followUpWake('WAITING', 1), 'deliver', 'a card the task waits on: the person wakes it');
    assert.equal(followUpWake('WAITING', 0), 'wake');
    assert.equal(followUpWake('RUNNING', 0), 'wake');
    assert.match(followUpInboxText({ reason: 'check the render', dueAt: now }), /your own follow-up.*check the render/);
    // A task whose only remaining work is its follow-up sleeps instead of finishing or idling.
    const base = { modelText: 'I will check back later.', pendingJobs: 0, pendingApprovals: 0, turns: 1, maxTurns: 25, progressed: false, idleTurns: 1, maxIdleTurns: 2, stepLimitHit: false };
    assert.equal(decideContinuation({ ...base, checklist: null, pendingFollowUps: 1 }).kind, 'suspend');
    assert.equal(decideContinuation({ ...base, checklist: null, pendingFollowUps: 0 }).kind, 'complete');
    const open = [{ id: 's1', title: 'Render', kind: 'VIDEO', count: 1, status: 'TODO', artifacts: [] }] as never;
    assert.equal(decideContinuation({ ...base, checklist: open, pendingFollowUps: 1 }).kind, 'suspend', 'not paused as idle');
    assert.equal(decideContinuation({ ...base, checklist: open, pendingFollowUps: 0 }).kind, 'stop');
  });
});

// ---------------------------------------------------------------------------------------------
// The scripted agent. A task's title names its scenario ([fu:<name>]); the model schedules one
// follow-up, says it will come back, and when the reminder arrives does what the scenario says.
const REASON: Record<string, string> = {
  off: 'see whether the client answered',
  wait: "see whether the video's colours are right",
  quiet: 'remind about the open card',
  paid: 'order the final poster once the brief has settled',
};
const reminders: string[] = [];
const content = (m: BaseMessage) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
const model = new ScriptedChatModel(({ messages }) => {
  const all = messages.map(content).join('\n');
  const scenario = /\[fu:(\w+)\]/.exec(all)?.[1] ?? 'none';
  const results = messages.filter((m) => m instanceof ToolMessage).map(content);
  const woken = messages.findIndex((m) => content(m).startsWith('[your follow-up]'));
  if (woken >= 0) {
    // The first step that reads the reminder acts on it; a later step of that turn has done so.
    if (messages.slice(woken + 1).some((m) => m instanceof AIMessage)) return { content: 'Ordered.' };
    reminders.push(content(messages[woken]!));
    if (scenario === 'paid') return { content: 'Ordering the final poster now.', toolCalls: [{ name: 'generate_image', args: { prompt: 'night-market poster, final', finishWhenDone: true } }] };
    return { content: 'Checked it: the colours are right.' };
  }
  if (results.length === 0 && REASON[scenario]) return { content: 'I will come back to this.', toolCalls: [{ name: 'follow_up_at', args: { inMinutes: 60, reason: REASON[scenario] } }] };
  return { content: results.length ? 'I will check back later.' : 'Done.' };
});

const prisma = (t: { app: App }) => t.app.deps.prisma;
const ownerOf = (s: Seeded): Viewer => ({ userId: s.ownerId, credentialId: 'test', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[s.workspaceId, 'OWNER']]), principal: 'HUMAN' });
const runtimeConfig = () => ({ ...testConfig().runtime, leaseMs: 2000, watchdogMs: 100, staleQueuedMs: 1000, workerConcurrency: 2 });

async function settings(app: App, workspaceId: string, s: { followUpsEnabled?: boolean; timeZone?: string; quietFromMinute?: number | null; quietToMinute?: number | null; perActionFreeCents?: number; dailyFreeCents?: number }) {
  await app.deps.prisma.workspaceSettings.upsert({ where: { workspaceId }, create: { workspaceId, ...s }, update: s });
}

/** A task run by the scripted agent until it is WAITING on its follow-up (or has ended). */
async function taskWithFollowUp(t: { app: App }, s: Seeded, scenario: string) {
  const task = await createTask(t.app.deps, ownerOf(s), { workspaceId: s.workspaceId, title: `[fu:${scenario}] ${REASON[scenario] ?? scenario}` });
  const row = await waitFor(async () => {
    const k = await prisma(t).task.findUniqueOrThrow({ where: { id: task.id } });
    return ['WAITING', 'COMPLETED', 'FAILED', 'PAUSED'].includes(k.status) && k;
  }, `task ${scenario} to settle`, { timeoutMs: 20_000 });
  return { task: row, followUp: await prisma(t).followUp.findFirst({ where: { taskId: task.id } }) };
}

/** As if the clock had reached the follow-up's wake: its row and its queued job are due now. */
async function dueNow(t: { app: App }, followUpId: string) {
  await prisma(t).followUp.update({ where: { id: followUpId }, data: { wakeAt: new Date() } });
  await prisma(t).$executeRawUnsafe(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND singleton_key = $2 AND state = 'created'`, FOLLOW_UP_QUEUE, followUpId);
}

const jobsOf = (t: { app: App }, followUpId: string) =>
  prisma(t).$queryRawUnsafe<{ state: string; start_after: Date }[]>(`SELECT state::text AS state, start_after FROM pgboss.job WHERE name = $1 AND singleton_key = $2 ORDER BY created_on`, FOLLOW_UP_QUEUE, followUpId);
/** Whether at least `n` wake jobs of the follow-up were sent and every one has run. */
const jobsRan = async (t: { app: App }, followUpId: string, n: number) => {
  const jobs = await jobsOf(t, followUpId);
  return jobs.length >= n && jobs.every((j) => j.state === 'completed');
};
const eventsOf = async (t: { app: App }, taskId: string, type: string) => (await prisma(t).taskEvent.findMany({ where: { taskId, type }, orderBy: { seq: 'asc' } })).length;

// ---------------------------------------------------------------------------------------------
describe('the tool and the wake', () => {
  let t: TestApp;
  let dataDir: string;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-followups-'));
    t = await startTestApp('followups', { dataDir, runtime: runtimeConfig() }, { models: scriptedProvider(model) }, { worker: { concurrency: 2 } });
  });
  after(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('opt-in off: the tool refuses with a sentence the model reads, and nothing is recorded', async () => {
    const { task } = await taskWithFollowUp(t, t.a, 'off');
    assert.equal(task.status, 'COMPLETED', 'the agent went on without a follow-up');
    const call = await prisma(t).toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'follow_up_at' } });
    assert.equal(call.status, 'FAILED');
    assert.match(call.error ?? '', /^Follow-ups are off in this workspace; .*Nothing was scheduled/);
    assert.equal(await prisma(t).followUp.count({ where: { taskId: task.id } }), 0);
    assert.equal(await eventsOf(t, task.id, 'FOLLOW_UP_SCHEDULED'), 0);
    const queued = await prisma(t).$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, FOLLOW_UP_QUEUE);
    assert.equal(queued[0]!.n, 0, 'no wake job either');
  });

  test('once per call key: a replayed call returns the row the first run recorded, even after its time has passed', async () => {
    await settings(t.app, t.b.workspaceId, { followUpsEnabled: true, quietFromMinute: null, quietToMinute: null });
    // A task with no turn of its own: only the calls below touch it.
    const task = await prisma(t).task.create({ data: { workspaceId: t.b.workspaceId, title: 'replayed follow-up', status: 'WAITING' } });
    const tools = t.app.deps.runtime.tools;
    const def = tools.get('follow_up_at')!;
    const ctx = (key: string): ToolContext => ({ idempotencyKey: key, taskId: task.id, workspaceId: t.b.workspaceId, turnId: key.split(':')[0]!, uow: t.app.deps, signal: new AbortController().signal });
    const soon = new Date(Date.now() + 2 * MINUTE).toISOString();
    // Two runs of the same call at once (a worker and the one that took its turn over), then a replay.
    const [a, b] = (await Promise.all([tools.run(def, { at: soon, reason: 'check the render' }, ctx('t1:0:0')), tools.run(def, { at: soon, reason: 'check the render' }, ctx('t1:0:0'))])) as { followUpId: string; replayed?: boolean }[];
    assert.equal(a!.followUpId, b!.followUpId);
    assert.equal([a!.replayed, b!.replayed].filter(Boolean).length, 1, 'one run recorded it, the other found it');
    const late = (await tools.run(def, { at: new Date(Date.now() - MINUTE).toISOString(), reason: 'check the render' }, ctx('t1:0:0'))) as { followUpId: string; replayed: boolean; wakeAt: string };
    assert.deepEqual([late.followUpId, late.replayed, late.wakeAt], [a!.followUpId, true, new Date(soon).toISOString()]);
    assert.equal(await prisma(t).followUp.count({ where: { taskId: task.id } }), 1);
    assert.equal(await eventsOf(t, task.id, 'FOLLOW_UP_SCHEDULED'), 1);
    const jobs = await jobsOf(t, a!.followUpId);
    assert.equal(jobs.length, 1, 'one wake job, keyed by the follow-up');
    assert.equal(jobs[0]!.start_after.toISOString(), new Date(soon).toISOString(), 'due when the follow-up wakes');
    // Another call is another follow-up.
    const other = (await tools.run(def, { inMinutes: 5, reason: 'and the sound' }, ctx('t1:0:1'))) as { followUpId: string };
    assert.notEqual(other.followUpId, a!.followUpId);
    // Refusals read as sentences, and record nothing.
    const refused = async (input: unknown, re: RegExp) => {
      await assert.rejects(tools.run(def, input, ctx(`t1:1:${Math.random()}`)), (e: Error) => (assert.match(e.message, re), true));
    };
    await refused({ at: new Date(Date.now() - MINUTE).toISOString(), reason: 'x' }, /is in the past .*Nothing was scheduled/);
    await refused({ at: new Date(Date.now() + 91 * 24 * 60 * MINUTE).toISOString(), reason: 'x' }, /more than 90 days ahead/);
    await refused({ inMinutes: 5, reason: '   ' }, /reason may not be empty/);
    await refused({ inMinutes: 5, at: soon, reason: 'x' }, /exactly one of at and inMinutes/);
    await refused({ reason: 'x' }, /exactly one of at and inMinutes/);
    await refused({ at: 'next friday', reason: 'x' }, /ISO 8601 date-time/);
    await refused({ inMinutes: 200_000, reason: 'x' }, /at most 129600/);
    assert.equal(await prisma(t).followUp.count({ where: { taskId: task.id } }), 2);
    await prisma(t).followUp.updateMany({ where: { taskId: task.id }, data: { status: 'CANCELLED' } });
  });

  test('a cancelled follow-up never wakes; it is visible, typed errors refuse a second cancel; cancelling a task cancels its follow-ups', async () => {
    await settings(t.app, t.a.workspaceId, { followUpsEnabled: true, quietFromMinute: null, quietToMinute: null });
    const { task, followUp } = await taskWithFollowUp(t, t.a, 'wait');
    assert.equal(task.status, 'WAITING');
    assert.equal(task.statusReason, 'waiting for a follow-up the agent scheduled');
    assert.ok(followUp);
    const taskId = toGlobalId('Task', task.id);
    const fid = toGlobalId('FollowUp', followUp.id);
    let seen = (await gqlOk(t.url, t.a.viewerToken, TaskFollowUps, { id: taskId })).task!;
    assert.deepEqual(seen.followUps.map((f) => [f.id, f.reason, f.status, f.deferred, f.task.id]), [[fid, REASON.wait, 'PENDING', false, taskId]]);
    assert.equal(seen.pending.length, 1);
    assert.equal((await gqlOk(t.url, t.a.viewerToken, FollowUpNode, { id: fid })).node?.id, fid);
    assert.equal((await gqlOk(t.url, t.b.ownerToken, FollowUpNode, { id: fid })).node, null, "another workspace's follow-up is nobody's business");
    // Who may cancel: not a viewer, not another workspace.
    assert.equal((await gql(t.url, t.a.viewerToken, CancelFollowUp, { input: { followUpId: fid } })).errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal((await gql(t.url, t.b.ownerToken, CancelFollowUp, { input: { followUpId: fid } })).errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const cancelled = (await gqlOk(t.url, t.a.ownerToken, CancelFollowUp, { input: { followUpId: fid } })).cancelFollowUp.followUp;
    assert.equal(cancelled.status, 'CANCELLED');
    assert.equal(cancelled.cancelledBy?.id, toGlobalId('User', t.a.ownerId));
    const again = await gql(t.url, t.a.ownerToken, CancelFollowUp, { input: { followUpId: fid } });
    assert.equal(again.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(again.errors?.[0]?.extensions?.reason, 'FOLLOW_UP_NOT_PENDING');
    assert.equal(again.errors?.[0]?.message, 'This follow-up was already cancelled.');
    // Its job comes due and finds it cancelled: nothing reaches the task.
    const turns = await prisma(t).turn.count({ where: { taskId: task.id } });
    await dueNow(t, followUp.id);
    await waitFor(() => jobsRan(t, followUp.id, 1), 'the wake job to run');
    assert.equal(await eventsOf(t, task.id, 'FOLLOW_UP_FIRED'), 0);
    assert.equal(await prisma(t).inboxItem.count({ where: { taskId: task.id, signal: 'FOLLOW_UP' } }), 0);
    assert.equal(await prisma(t).turn.count({ where: { taskId: task.id } }), turns, 'no turn');
    assert.equal(await fireFollowUp(t.app.deps, followUp.id), 'none', 'applying the wake by hand changes nothing either');
    seen = (await gqlOk(t.url, t.a.ownerToken, TaskFollowUps, { id: taskId })).task!;
    assert.equal(seen.status, 'WAITING');
    assert.ok(seen.followUps[0]!.cancelledAt && !seen.followUps[0]!.firedAt);
    assert.equal(seen.pending.length, 0);
    const reason = (await prisma(t).task.findUniqueOrThrow({ where: { id: task.id } })).statusReason;
    assert.match(reason ?? '', /follow-up was cancelled: write to the task to go on/, 'its reason no longer names a wake that is gone');

    // Cancelling a task cancels its pending follow-ups (and their jobs find them cancelled).
    const second = await taskWithFollowUp(t, t.a, 'wait');
    await signalTask(t.app.deps, ownerOf(t.a), { taskId: second.task.id, signal: 'CANCEL' });
    const row = await prisma(t).followUp.findUniqueOrThrow({ where: { id: second.followUp!.id } });
    assert.deepEqual([row.status, row.cancelledById], ['CANCELLED', t.a.ownerId]);
    const events = (await gqlOk(t.url, t.a.ownerToken, FollowUpEvents, { id: toGlobalId('Task', second.task.id) })).task!.events.edges.map((e) => e.node);
    assert.deepEqual(events.map((e) => e.type), ['FOLLOW_UP_SCHEDULED', 'FOLLOW_UP_CANCELLED']);
    assert.match((events[1] as { note?: string | null }).note ?? '', /The task ended as cancelled/);
    await dueNow(t, row.id);
    await waitFor(() => jobsRan(t, row.id, 1), 'the wake job to run');
    assert.equal(await prisma(t).inboxItem.count({ where: { taskId: second.task.id, signal: 'FOLLOW_UP' } }), 0);
    assert.equal((await prisma(t).task.findUniqueOrThrow({ where: { id: second.task.id } })).status, 'CANCELLED');
  });

  test('quiet hours defer the wake: when it is scheduled, and when it fires after the hours were changed', async () => {
    // Quiet hours around now, in Tokyo (no daylight saving time there: the expectation is simple).
    const zone = 'Asia/Tokyo';
    const wall = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date());
    const nowMinute = minutes(wall);
    const quiet = { quietFromMinute: (nowMinute + 1440 - 30) % 1440, quietToMinute: (nowMinute + 180) % 1440 };
    await settings(t.app, t.a.workspaceId, { followUpsEnabled: true, timeZone: zone, ...quiet });
    const { task, followUp } = await taskWithFollowUp(t, t.a, 'quiet');
    assert.ok(followUp && task.status === 'WAITING');
    const q = { timeZone: zone, fromMinute: quiet.quietFromMinute, toMinute: quiet.quietToMinute };
    assert.ok(isQuiet(followUp.dueAt, q), 'due an hour from now, inside the quiet hours');
    assert.equal(followUp.wakeAt.toISOString(), wakeTimeFor(followUp.dueAt, q).toISOString());
    assert.ok(followUp.wakeAt > followUp.dueAt);
    assert.equal(wallIn(followUp.wakeAt, zone), wallIn(new Date(Date.parse('2026-01-01T00:00:00Z') + quiet.quietToMinute * MINUTE), 'UTC'), 'at the end of the quiet hours, on the wall in Tokyo');
    assert.equal((await jobsOf(t, followUp.id))[0]!.start_after.toISOString(), followUp.wakeAt.toISOString(), 'the job waits until then');
    const scheduled = (await gqlOk(t.url, t.a.ownerToken, FollowUpEvents, { id: toGlobalId('Task', task.id) })).task!.events.edges[0]!.node as { deferred?: boolean | null; wakeAt?: string | null };
    assert.deepEqual([scheduled.deferred, scheduled.wakeAt], [true, followUp.wakeAt.toISOString()]);

    // Now one scheduled with no quiet hours, which comes due after they were set around now.
    await settings(t.app, t.a.workspaceId, { quietFromMinute: null, quietToMinute: null });
    const late = await taskWithFollowUp(t, t.a, 'wait');
    assert.equal(late.followUp!.wakeAt.toISOString(), late.followUp!.dueAt.toISOString());
    await settings(t.app, t.a.workspaceId, quiet);
    await dueNow(t, late.followUp!.id);
    const moved = await waitFor(async () => {
      const f = await prisma(t).followUp.findUniqueOrThrow({ where: { id: late.followUp!.id } });
      return f.wakeAt.getTime() > Date.now() + 60 * MINUTE && f;
    }, 'the wake to move past the quiet hours');
    assert.equal(moved.status, 'PENDING');
    assert.equal(wallIn(moved.wakeAt, zone), wallIn(new Date(Date.parse('2026-01-01T00:00:00Z') + quiet.quietToMinute * MINUTE), 'UTC'));
    assert.equal(await eventsOf(t, late.task.id, 'FOLLOW_UP_DEFERRED'), 1);
    assert.equal(await eventsOf(t, late.task.id, 'FOLLOW_UP_FIRED'), 0);
    assert.equal(await prisma(t).inboxItem.count({ where: { taskId: late.task.id, signal: 'FOLLOW_UP' } }), 0);
    const jobs = await waitFor(async () => {
      const j = await jobsOf(t, late.followUp!.id);
      return j.some((x) => x.state === 'completed') && j;
    }, 'the first wake job to end');
    assert.deepEqual(jobs.filter((j) => j.state === 'created').map((j) => j.start_after.toISOString()), [moved.wakeAt.toISOString()], 'a new wake job for the end of the quiet hours');
    await settings(t.app, t.a.workspaceId, { quietFromMinute: null, quietToMinute: null, timeZone: 'UTC' });
    for (const id of [followUp.id, late.followUp!.id]) await prisma(t).followUp.update({ where: { id }, data: { status: 'CANCELLED' } });
  });

  test('a paused task is not resumed by its follow-up: the reminder waits for the person who resumes it', async () => {
    await settings(t.app, t.a.workspaceId, { followUpsEnabled: true, quietFromMinute: null, quietToMinute: null });
    const { task, followUp } = await taskWithFollowUp(t, t.a, 'wait');
    await signalTask(t.app.deps, ownerOf(t.a), { taskId: task.id, signal: 'PAUSE' });
    const turns = await prisma(t).turn.count({ where: { taskId: task.id } });
    await dueNow(t, followUp!.id);
    await waitFor(() => jobsRan(t, followUp!.id, 1), 'the wake job to run');
    const fired = await prisma(t).followUp.findUniqueOrThrow({ where: { id: followUp!.id } });
    assert.equal(fired.status, 'FIRED');
    const events = (await gqlOk(t.url, t.a.ownerToken, FollowUpEvents, { id: toGlobalId('Task', task.id) })).task!.events.edges.map((e) => e.node);
    assert.deepEqual(events.map((e) => [e.type, (e as { woke?: boolean | null }).woke ?? null]), [['FOLLOW_UP_SCHEDULED', null], ['FOLLOW_UP_FIRED', false]]);
    const item = await prisma(t).inboxItem.findFirstOrThrow({ where: { taskId: task.id, signal: 'FOLLOW_UP' } });
    assert.equal(item.consumedAt, null, 'unread');
    assert.equal((await prisma(t).task.findUniqueOrThrow({ where: { id: task.id } })).status, 'PAUSED', 'still paused');
    assert.equal(await prisma(t).turn.count({ where: { taskId: task.id } }), turns, 'no turn');
    // The person resumes it: the agent reads its reminder then.
    await signalTask(t.app.deps, ownerOf(t.a), { taskId: task.id, signal: 'RESUME' });
    await waitFor(async () => (await prisma(t).task.findUniqueOrThrow({ where: { id: task.id } })).status === 'COMPLETED', 'the resumed task to finish', { timeoutMs: 20_000 });
    assert.ok((await prisma(t).inboxItem.findUniqueOrThrow({ where: { id: item.id } })).consumedAt, 'read after the resume');
  });

  test('a woken turn is an ordinary turn: its paid action raises a price card and nothing is charged before approval', async () => {
    await settings(t.app, t.a.workspaceId, { followUpsEnabled: true, perActionFreeCents: 0, dailyFreeCents: 0 });
    const { task, followUp } = await taskWithFollowUp(t, t.a, 'paid');
    assert.equal(task.status, 'WAITING');
    await dueNow(t, followUp!.id);
    const card = await waitFor(() => prisma(t).approval.findFirst({ where: { taskId: task.id, kind: 'PAID_ACTION' } }), 'the price card', { timeoutMs: 20_000 });
    assert.equal(card.status, 'PENDING');
    assert.ok((card.quoteCents ?? 0) > 0);
    await waitFor(async () => (await prisma(t).task.findUniqueOrThrow({ where: { id: task.id } })).status === 'WAITING', 'the task to wait for the person');
    assert.equal(await prisma(t).ledgerEntry.count({ where: { taskId: task.id } }), 0, 'nothing held or charged');
    assert.equal(await prisma(t).generationJob.count({ where: { taskId: task.id } }), 0, 'nothing ordered');
    assert.equal(await eventsOf(t, task.id, 'FOLLOW_UP_FIRED'), 1);
    // The person approves: now it is ordered and charged, through the same gate.
    await resolveApproval(t.app.deps, ownerOf(t.a), { approvalId: card.id, decision: 'APPROVE', idempotencyKey: 'fu-paid-approve' });
    await waitFor(async () => (await prisma(t).ledgerEntry.count({ where: { taskId: task.id, kind: 'CHARGE' } })) === 1, 'the charge after approval', { timeoutMs: 30_000 });
    assert.equal(await prisma(t).generationJob.count({ where: { taskId: task.id } }), 1);
  });
});

// ---------------------------------------------------------------------------------------------
describe('across a restart', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  const apps: App[] = [];
  before(async () => {
    db = await createTestDatabase('followups-restart');
    dataDir = mkdtempSync(join(tmpdir(), 'atelier-followups-restart-'));
  });
  after(async () => {
    for (const a of apps.splice(0)) await a.close();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a follow-up scheduled before the server stopped wakes its task exactly once after it starts again, and one whose job was lost too', async () => {
    const config = testConfig({ dataDir, runtime: runtimeConfig() });
    const first = await createApp(config, db.url, { log: createLogger(config.logLevel), models: scriptedProvider(model) });
    apps.push(first);
    const s = await seedWorkspace(first, 'Gamma');
    await settings(first, s.workspaceId, { followUpsEnabled: true });
    await first.startWorker({ concurrency: 2 });
    const kept = await taskWithFollowUp({ app: first }, s, 'wait');
    const lost = await taskWithFollowUp({ app: first }, s, 'wait');
    assert.ok(kept.followUp && lost.followUp && kept.task.status === 'WAITING' && lost.task.status === 'WAITING');
    const turnsBefore = await first.deps.prisma.turn.count({ where: { taskId: { in: [kept.task.id, lost.task.id] } } });
    await first.close();
    apps.splice(0);

    // While no server ran: both came due; one's queued job survived, the other's was lost.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query(`UPDATE follow_ups SET wake_at = now() WHERE id = ANY($1::uuid[])`, [[kept.followUp.id, lost.followUp.id]]);
      await c.query(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND singleton_key = $2`, [FOLLOW_UP_QUEUE, kept.followUp.id]);
      const gone = await c.query(`DELETE FROM pgboss.job WHERE name = $1 AND singleton_key = $2`, [FOLLOW_UP_QUEUE, lost.followUp.id]);
      assert.equal(gone.rowCount, 1);
    } finally {
      await c.end();
    }

    const before = reminders.length;
    const second = await createApp(config, db.url, { log: createLogger(config.logLevel), models: scriptedProvider(model) });
    apps.push(second);
    await second.startWorker({ concurrency: 2 });
    const t2 = { app: second };
    for (const k of [kept, lost]) {
      await waitFor(async () => (await prisma(t2).task.findUniqueOrThrow({ where: { id: k.task.id } })).status === 'COMPLETED', 'the woken task to finish', { timeoutMs: 20_000 });
    }
    // Ask for more wakes than the one that happened: a re-sent job and the sweep find them fired.
    await sendFollowUpJob(second.deps.prisma, second.deps.scheduler, { id: kept.followUp.id, wakeAt: new Date() });
    assert.equal(await fireFollowUp(second.deps, lost.followUp.id), 'none');
    await waitFor(() => jobsRan(t2, kept.followUp!.id, 2), 'the extra job to run');
    for (const k of [kept, lost]) {
      const f = await prisma(t2).followUp.findUniqueOrThrow({ where: { id: k.followUp!.id } });
      assert.equal(f.status, 'FIRED');
      assert.equal(await eventsOf(t2, k.task.id, 'FOLLOW_UP_FIRED'), 1, 'fired once');
      assert.equal(await prisma(t2).inboxItem.count({ where: { taskId: k.task.id, signal: 'FOLLOW_UP' } }), 1, 'one reminder');
      const item = await prisma(t2).inboxItem.findFirstOrThrow({ where: { taskId: k.task.id, signal: 'FOLLOW_UP' } });
      assert.ok(item.consumedAt, 'read by the woken turn');
      assert.match(item.text ?? '', /your own follow-up.*video's colours are right/);
    }
    assert.equal(await prisma(t2).turn.count({ where: { taskId: { in: [kept.task.id, lost.task.id] } } }), turnsBefore + 2, 'one wake turn each');
    assert.equal(reminders.length - before, 2, 'the model read each reminder once');
    assert.ok(reminders.slice(before).every((r) => r.startsWith('[your follow-up] This is your own follow-up')));
  });
});
