// Schedules: the slot rules (time zones, DST, missed slots), the API (create, update against a
// version, pause, resume, delete; bad input refused with a sentence and nothing written; who may
// change what), and running them — a weekly task schedule across a server restart with the runner
// ticking twice at once (one run, the missed slots counted, one task with its turn, its cap, its own
// plan card), a message schedule that routes one message per slot (a send interrupted after its run
// committed is finished by the next tick, once), a paused schedule that never runs, a schedule whose
// creator left that stops itself.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createApp, type App } from '../server/app.ts';
import { createToken } from '../server/auth/create-token.ts';
import { createPrisma } from '../server/db/client.ts';
import { createLogger } from '../server/log.ts';
import { canonicalTimeZone, cronProblem, describeSchedule, dueRun, nextSlotAfter, timeZoneProblem } from '../server/domain/schedule-slots.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { SCHEDULE_TICK_QUEUE } from '../server/services/schedules/jobs.ts';
import { messageKeyOf, runDueSchedules } from '../server/services/schedules/run-due.ts';
import { advanceSchedule, insertRun } from '../server/store/schedules.ts';
import { posterModel } from './fixtures/poster-plugin.ts';
import { graphql } from './gql/index.ts';
import { seedWorkspace, startTestApp, testConfig, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { createTestDatabase } from './helpers/db.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

const CreateSchedule = graphql(`
  mutation TestCreateSchedule($input: CreateScheduleInput!) {
    createSchedule(input: $input) {
      schedule { id kind title text cron runAt timeZone description budgetCapCents paused nextRunAt lastRunAt version createdBy { id } }
    }
  }
`);
const UpdateSchedule = graphql(`
  mutation TestUpdateSchedule($input: UpdateScheduleInput!) {
    updateSchedule(input: $input) { schedule { id title text cron runAt timeZone description budgetCapCents nextRunAt version } }
  }
`);
const PauseSchedule = graphql(`
  mutation TestPauseSchedule($input: PauseScheduleInput!) { pauseSchedule(input: $input) { schedule { id paused nextRunAt version } } }
`);
const ResumeSchedule = graphql(`
  mutation TestResumeSchedule($input: ResumeScheduleInput!) { resumeSchedule(input: $input) { schedule { id paused nextRunAt version } } }
`);
const DeleteSchedule = graphql(`
  mutation TestDeleteSchedule($input: DeleteScheduleInput!) { deleteSchedule(input: $input) { deletedScheduleId } }
`);
const WorkspaceSchedules = graphql(`
  query TestWorkspaceSchedules($id: ID!) {
    workspace(id: $id) {
      schedules {
        id title description paused nextRunAt
        runs { slotAt ranAt missedSlots task { id title budgetCapCents schedule { id } } message { id text } }
      }
    }
  }
`);
const ScheduleNode = graphql(`
  query TestScheduleNode($id: ID!) { node(id: $id) { id ... on Schedule { title version } } }
`);
const SetTimeZone = graphql(`
  mutation TestScheduleTimeZone($input: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $input) { settings { timeZone } } }
`);

const iso = (d: Date | null) => d?.toISOString() ?? null;

// ---------------------------------------------------------------------------------------------
describe('slot rules', () => {
  test('a weekly slot keeps its wall time across daylight saving time, in each zone by its own rules', () => {
    // Europe/Berlin goes to summer time on 29 March 2026: Monday 09:00 is 08:00 UTC before, 07:00 UTC after.
    assert.equal(iso(nextSlotAfter('0 9 * * 1', 'Europe/Berlin', new Date('2026-03-20T00:00:00Z'))), '2026-03-23T08:00:00.000Z');
    assert.equal(iso(nextSlotAfter('0 9 * * 1', 'Europe/Berlin', new Date('2026-03-23T08:00:00Z'))), '2026-03-30T07:00:00.000Z', 'strictly after: the slot itself is not next');
    assert.equal(iso(nextSlotAfter('0 9 * * 1', 'Europe/Berlin', new Date('2026-10-20T00:00:00Z'))), '2026-10-26T08:00:00.000Z', 'back to winter time');
    // New York changes three weeks earlier (8 March 2026).
    assert.equal(iso(nextSlotAfter('0 9 * * *', 'America/New_York', new Date('2026-03-07T20:00:00Z'))), '2026-03-08T13:00:00.000Z');
    assert.equal(iso(nextSlotAfter('0 9 * * *', 'America/New_York', new Date('2026-03-06T20:00:00Z'))), '2026-03-07T14:00:00.000Z');
    // Half-hour zones, and one whose daylight saving time moves by half an hour (Lord Howe Island).
    assert.equal(iso(nextSlotAfter('30 8 * * 1-5', 'Asia/Kolkata', new Date('2026-06-01T00:00:00Z'))), '2026-06-01T03:00:00.000Z');
    assert.equal(iso(nextSlotAfter('0 9 * * *', 'Australia/Lord_Howe', new Date('2026-01-10T00:00:00Z'))), '2026-01-10T22:00:00.000Z', 'summer: UTC+11');
    assert.equal(iso(nextSlotAfter('0 9 * * *', 'Australia/Lord_Howe', new Date('2026-06-10T00:00:00Z'))), '2026-06-10T22:30:00.000Z', 'winter: UTC+10:30');
    assert.equal(iso(nextSlotAfter('0 9 * * 1', 'UTC', new Date('2026-03-20T00:00:00Z'))), '2026-03-23T09:00:00.000Z');
  });

  test('a wall time the clocks skip runs after the gap; one they repeat runs once', () => {
    // Berlin, 29 March 2026: 02:00–03:00 does not exist. 02:30 that day falls on 03:30 summer time.
    const spring = nextSlotAfter('30 2 * * *', 'Europe/Berlin', new Date('2026-03-28T12:00:00Z'))!;
    assert.equal(spring.toISOString(), '2026-03-29T01:30:00.000Z');
    assert.equal(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(spring), '03:30');
    assert.equal(iso(nextSlotAfter('30 2 * * *', 'Europe/Berlin', spring)), '2026-03-30T00:30:00.000Z', 'and 02:30 summer time the day after');
    // 25 October 2026: 02:00–03:00 happens twice. 02:30 runs once, then the next day.
    const fall = nextSlotAfter('30 2 * * *', 'Europe/Berlin', new Date('2026-10-24T12:00:00Z'))!;
    assert.equal(fall.toISOString(), '2026-10-25T00:30:00.000Z');
    assert.equal(iso(nextSlotAfter('30 2 * * *', 'Europe/Berlin', fall)), '2026-10-26T01:30:00.000Z', 'the repeated 02:30 does not run again');
  });

  test('slots missed while nothing ran collapse into one run of the latest, counting the others', () => {
    const weekly = { cron: '0 9 * * 1', timeZone: 'Europe/Berlin', nextRunAt: new Date('2026-03-23T08:00:00Z') };
    assert.equal(dueRun(weekly, new Date('2026-03-23T07:59:59.999Z')), null, 'not yet due');
    assert.deepEqual(dueRun(weekly, new Date('2026-03-23T08:00:00Z')), { slotAt: weekly.nextRunAt, missedSlots: 0, nextRunAt: new Date('2026-03-30T07:00:00Z') }, 'due at its slot exactly');
    // Down from before 23 March until 15 April: the Mondays 23 March, 30 March, 6 April, 13 April came due.
    assert.deepEqual(dueRun(weekly, new Date('2026-04-15T10:00:00Z')), { slotAt: new Date('2026-04-13T07:00:00Z'), missedSlots: 3, nextRunAt: new Date('2026-04-20T07:00:00Z') });
    assert.deepEqual(dueRun({ cron: null, timeZone: 'UTC', nextRunAt: new Date('2026-05-01T12:00:00Z') }, new Date('2026-06-01T00:00:00Z')), { slotAt: new Date('2026-05-01T12:00:00Z'), missedSlots: 0, nextRunAt: null }, 'a one-off runs once, late');
    assert.equal(dueRun({ cron: '0 9 * * 1', timeZone: 'UTC', nextRunAt: null }, new Date()), null, 'nothing ahead: nothing runs');
    // Whatever the clock says, the run's slot has come and the next one has not (so a later tick never repeats a slot).
    for (const [cron, zone] of [['*/7 * * * *', 'Europe/Berlin'], ['30 2 * * *', 'Europe/Berlin'], ['0 9 * * 1-5', 'America/New_York'], ['15 */5 * * *', 'Asia/Kolkata']] as const) {
      let next = nextSlotAfter(cron, zone, new Date('2026-03-01T00:00:00Z'))!;
      for (let step = 0; step < 40; step++) {
        const now = new Date(next.getTime() + ((step * 7_919_000) % 200_000_000));
        const due = dueRun({ cron, timeZone: zone, nextRunAt: next }, now)!;
        assert.ok(due.slotAt <= now && due.slotAt >= next, `${cron}: slot ${iso(due.slotAt)} within [${iso(next)}, ${iso(now)}]`);
        assert.ok(due.nextRunAt! > now, `${cron}: next ${iso(due.nextRunAt)} after ${iso(now)}`);
        next = due.nextRunAt!;
      }
    }
  });

  test('bad expressions and zones are refused with a sentence that names what is wrong', () => {
    assert.equal(cronProblem('0 9 * * 1'), null);
    assert.equal(cronProblem('*/15 9-17 * * MON-FRI'), null);
    assert.match(cronProblem('61 9 * * 1')!, /^The minute field "61" .* use 0–59/);
    assert.match(cronProblem('0 24 * * 1')!, /^The hour field "24"/);
    assert.match(cronProblem('0 9 * * 8')!, /^The day of the week field "8"/);
    assert.match(cronProblem('0 9 * * *  *')!, /has five fields .* has 6\.$/);
    assert.match(cronProblem('0 9 * *')!, /has 4\.$/);
    assert.match(cronProblem('@weekly')!, /shortcuts like "@weekly" are not accepted/);
    assert.match(cronProblem('0 0 30 2 *')!, /never matches a real date/);
    assert.match(cronProblem('  ')!, /^Give a cron expression/);
    assert.equal(timeZoneProblem('Europe/Berlin'), null);
    assert.match(timeZoneProblem('Mars/Olympus')!, /"Mars\/Olympus" is not a time zone this server knows/);
    assert.match(timeZoneProblem('+02:00')!, /not a time zone/, 'a fixed offset has no daylight saving time: refused');
    assert.equal(canonicalTimeZone('europe/berlin'), 'Europe/Berlin');
  });

  test('in plain words', () => {
    const d = (cron: string, timeZone = 'Europe/Berlin') => describeSchedule({ cron, runAt: null, timeZone });
    assert.equal(d('0 9 * * 1'), 'Every Monday at 09:00 (Europe/Berlin)');
    assert.equal(d('30 8 * * 1-5', 'UTC'), 'Every weekday (Monday to Friday) at 08:30 (UTC)');
    assert.equal(d('0 18 * * *'), 'Every day at 18:00 (Europe/Berlin)');
    assert.equal(d('0 9 * * 5,1,3'), 'Every Monday, Wednesday and Friday at 09:00 (Europe/Berlin)');
    assert.equal(d('0 10 * * 0,6'), 'Every Saturday and Sunday at 10:00 (Europe/Berlin)');
    assert.equal(d('0 9,17 * * *'), 'Every day at 09:00 and 17:00 (Europe/Berlin)');
    assert.equal(d('0 7 1 * *'), 'On the 1st of every month at 07:00 (Europe/Berlin)');
    assert.equal(d('*/15 * * * *'), 'Every 15 minutes (Europe/Berlin)');
    assert.equal(d('*/15 9-17 * * 1-5'), 'On the cron schedule "*/15 9-17 * * 1-5" (Europe/Berlin)');
    assert.equal(describeSchedule({ cron: null, runAt: new Date('2026-06-12T07:00:00Z'), timeZone: 'Europe/Berlin' }), 'Once on Friday, 12 June 2026 at 09:00 (Europe/Berlin)');
  });
});

// ---------------------------------------------------------------------------------------------
describe('the API', () => {
  let t: TestApp;
  let ws: string;
  let member: { id: string; token: string };
  let service: string;
  const created: string[] = [];

  before(async () => {
    t = await startTestApp('schedules-api');
    ws = toGlobalId('Workspace', t.a.workspaceId);
    const prisma = t.app.deps.prisma;
    const m = await prisma.user.create({ data: { email: 'member-schedules@example.test', name: 'Member Alpha' } });
    await prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: m.id, role: 'MEMBER' } });
    member = { id: m.id, token: (await createToken(prisma, { workspaceId: t.a.workspaceId, userId: m.id, name: 'member', scopes: ['READ', 'WRITE', 'APPROVE'] })).token };
    service = (await createToken(prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'integration', scopes: ['READ', 'WRITE'], principal: 'SERVICE' })).token;
    await gqlOk(t.url, t.a.ownerToken, SetTimeZone, { input: { workspaceId: ws, timeZone: 'Europe/Berlin', taskBudgetCapCents: 500 } });
  });
  after(async () => {
    await t?.close();
  });

  const create = async (input: Record<string, unknown>, token = t.a.ownerToken) => {
    const s = (await gqlOk(t.url, token, CreateSchedule, { input: { workspaceId: ws, kind: 'MESSAGE', text: 'Post last week’s results', ...input } as never })).createSchedule.schedule;
    created.push(s.id);
    return s;
  };
  const count = () => t.app.deps.prisma.schedule.count();

  test('a new schedule is read in the workspace’s time zone, says when in plain words and knows its next run', async () => {
    const s = await create({ cron: '0 9 * * 1', title: 'Weekly post' });
    assert.equal(s.timeZone, 'Europe/Berlin', 'the workspace’s zone');
    assert.equal(s.description, 'Every Monday at 09:00 (Europe/Berlin)');
    assert.equal(s.nextRunAt, nextSlotAfter('0 9 * * 1', 'Europe/Berlin', new Date(Date.parse(s.nextRunAt!) - 7 * 86_400_000 + 1))!.toISOString());
    assert.ok(Date.parse(s.nextRunAt!) > Date.now() && Date.parse(s.nextRunAt!) <= Date.now() + 7 * 86_400_000, 'within the coming week');
    assert.deepEqual([s.kind, s.version, s.paused, s.lastRunAt, s.createdBy?.id], ['MESSAGE', 1, false, null, toGlobalId('User', t.a.ownerId)]);
    const once = await create({ runAt: new Date(Date.now() + 3 * 86_400_000).toISOString(), timeZone: 'america/new_york', kind: 'TASK', text: 'Remind me to send the invoices\nand attach the receipts', budgetCapCents: 250 });
    assert.equal(once.title, 'Remind me to send the invoices', 'the first line is the title');
    assert.equal(once.timeZone, 'America/New_York', 'stored by its canonical name');
    assert.equal(once.nextRunAt, once.runAt);
    assert.match(once.description, /^Once on \w+day, \d+ \w+ \d{4} at \d\d:\d\d \(America\/New_York\)$/);
    assert.equal(once.budgetCapCents, 250);
    const listed = (await gqlOk(t.url, t.a.viewerToken, WorkspaceSchedules, { id: ws })).workspace!.schedules.map((x) => x.id);
    assert.deepEqual(listed.sort(), [s.id, once.id].sort(), 'every member sees them, a viewer too');
  });

  test('bad input is a typed error with a sentence, and changes nothing', async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string, string | undefined, RegExp][] = [
      [{ cron: '61 9 * * 1' }, 'BAD_USER_INPUT', 'INVALID_CRON', /The minute field "61"/],
      [{ cron: '0 9 * *' }, 'BAD_USER_INPUT', 'INVALID_CRON', /five fields/],
      [{ cron: '0 9 * * 1', timeZone: 'Mars/Olympus' }, 'BAD_USER_INPUT', 'UNKNOWN_TIME_ZONE', /not a time zone this server knows/],
      [{ runAt: new Date(Date.now() - 60_000).toISOString() }, 'BAD_USER_INPUT', 'RUN_AT_NOT_AHEAD', /runAt must be in the future/],
      [{ cron: '0 9 * * 1', text: '   ' }, 'BAD_USER_INPUT', undefined, /text must say what to send or do/],
      [{ cron: '0 9 * * 1', runAt: new Date(Date.now() + 60_000).toISOString() }, 'BAD_USER_INPUT', undefined, /not both/],
      [{}, 'BAD_USER_INPUT', undefined, /Say when/],
      [{ cron: '0 9 * * 1', budgetCapCents: 100 }, 'BAD_USER_INPUT', undefined, /a MESSAGE schedule takes none/],
      [{ cron: '0 9 * * 1', kind: 'TASK', budgetCapCents: -1 }, 'BAD_USER_INPUT', undefined, /must not be negative/],
    ];
    for (const [input, code, reason, message] of cases) {
      const r = await gql(t.url, t.a.ownerToken, CreateSchedule, { input: { workspaceId: ws, kind: 'MESSAGE', text: 'hello', ...input } as never });
      const e = r.errors?.[0];
      assert.equal(e?.extensions?.code, code, JSON.stringify(input));
      assert.equal(e?.extensions?.reason, reason, JSON.stringify(input));
      assert.match(e!.message, message);
    }
    // A viewer and a read-only token may not schedule anything.
    for (const token of [t.a.viewerToken, t.a.readToken]) {
      const r = await gql(t.url, token, CreateSchedule, { input: { workspaceId: ws, kind: 'MESSAGE', text: 'hello', cron: '0 9 * * 1' } });
      assert.equal(r.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    }
    // An integration may tighten the workspace's cap per task (500), not loosen it.
    const loose = await gql(t.url, service, CreateSchedule, { input: { workspaceId: ws, kind: 'TASK', text: 'hello', cron: '0 9 * * 1', budgetCapCents: 5_000 } });
    assert.equal(loose.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.match(loose.errors![0]!.message, /only a person can set a higher one/);
    assert.equal(await count(), before, 'nothing was saved');
    const tight = await create({ kind: 'TASK', cron: '0 9 * * 1', budgetCapCents: 200 }, service);
    assert.equal(tight.budgetCapCents, 200);
  });

  test('an update is made against the version seen: a stale one is a CONFLICT and writes nothing', async () => {
    const s = await create({ cron: '0 9 * * 1' });
    const moved = (await gqlOk(t.url, t.a.ownerToken, UpdateSchedule, { input: { scheduleId: s.id, expectedVersion: 1, cron: '30 8 * * 1-5', timeZone: 'UTC' } })).updateSchedule.schedule;
    assert.equal(moved.version, 2);
    assert.equal(moved.description, 'Every weekday (Monday to Friday) at 08:30 (UTC)');
    assert.equal(moved.nextRunAt, nextSlotAfter('30 8 * * 1-5', 'UTC', new Date(Date.parse(moved.nextRunAt!) - 1))!.toISOString(), 'the next run moved to a slot of the new expression');
    const stale = await gql(t.url, t.a.ownerToken, UpdateSchedule, { input: { scheduleId: s.id, expectedVersion: 1, text: 'an older idea' } });
    assert.equal(stale.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(stale.errors?.[0]?.extensions?.reason, 'STALE_BASE_VERSION');
    assert.equal(stale.errors?.[0]?.extensions?.currentVersion, 2);
    const row = await t.app.deps.prisma.schedule.findUniqueOrThrow({ where: { id: fromGlobalId(s.id).id } });
    assert.deepEqual([row.text, row.version], ['Post last week’s results', 2], 'nothing written');
    const bad = await gql(t.url, t.a.ownerToken, UpdateSchedule, { input: { scheduleId: s.id, expectedVersion: 2, cron: '0 9 * * 9' } });
    assert.equal(bad.errors?.[0]?.extensions?.reason, 'INVALID_CRON');
    const nothing = await gql(t.url, t.a.ownerToken, UpdateSchedule, { input: { scheduleId: s.id, expectedVersion: 2 } });
    assert.match(nothing.errors![0]!.message, /Nothing to change/);
    // Turned into a one-off.
    const runAt = new Date(Date.now() + 86_400_000).toISOString();
    const once = (await gqlOk(t.url, t.a.ownerToken, UpdateSchedule, { input: { scheduleId: s.id, expectedVersion: 2, runAt } })).updateSchedule.schedule;
    assert.deepEqual([once.cron, once.runAt, once.nextRunAt, once.version], [null, runAt, runAt, 3]);
  });

  test('pause, resume and delete; who may change whose schedule', async () => {
    const s = await create({ cron: '0 9 * * *' }, member.token);
    const paused = (await gqlOk(t.url, member.token, PauseSchedule, { input: { scheduleId: s.id } })).pauseSchedule.schedule;
    assert.deepEqual([paused.paused, paused.nextRunAt, paused.version], [true, null, 2]);
    const again = (await gqlOk(t.url, member.token, PauseSchedule, { input: { scheduleId: s.id } })).pauseSchedule.schedule;
    assert.equal(again.version, 2, 'pausing a paused schedule changes nothing');
    const resumed = (await gqlOk(t.url, t.a.ownerToken, ResumeSchedule, { input: { scheduleId: s.id } })).resumeSchedule.schedule;
    assert.equal(resumed.paused, false, 'an owner may resume a member’s schedule');
    assert.ok(Date.parse(resumed.nextRunAt!) > Date.now());
    // Only its creator changes what it says: its runs speak for them.
    const owners = await gql(t.url, t.a.ownerToken, UpdateSchedule, { input: { scheduleId: s.id, expectedVersion: resumed.version, text: 'words of the owner' } });
    assert.equal(owners.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const mine = await create({ cron: '0 9 * * *' });
    const members = await gql(t.url, member.token, PauseSchedule, { input: { scheduleId: mine.id } });
    assert.equal(members.errors?.[0]?.extensions?.code, 'FORBIDDEN', 'a member may not pause the owner’s schedule');
    // Another workspace's schedule does not exist for its owner.
    for (const doc of [PauseSchedule, DeleteSchedule] as const) {
      const r = await gql(t.url, t.b.ownerToken, doc as typeof PauseSchedule, { input: { scheduleId: s.id } });
      assert.equal(r.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    }
    assert.equal((await gqlOk(t.url, t.b.ownerToken, ScheduleNode, { id: s.id })).node, null);
    assert.equal((await gqlOk(t.url, t.a.viewerToken, ScheduleNode, { id: s.id })).node?.id, s.id);
    // Deleted: gone from the list and from node(id), and nothing more can be done to it.
    const deleted = (await gqlOk(t.url, t.a.ownerToken, DeleteSchedule, { input: { scheduleId: s.id } })).deleteSchedule;
    assert.equal(deleted.deletedScheduleId, s.id);
    assert.equal((await gqlOk(t.url, t.a.ownerToken, ScheduleNode, { id: s.id })).node, null);
    assert.ok(!(await gqlOk(t.url, t.a.ownerToken, WorkspaceSchedules, { id: ws })).workspace!.schedules.some((x) => x.id === s.id));
    const afterDelete = await gql(t.url, member.token, ResumeSchedule, { input: { scheduleId: s.id } });
    assert.equal(afterDelete.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const row = await t.app.deps.prisma.schedule.findUniqueOrThrow({ where: { id: fromGlobalId(s.id).id } });
    assert.ok(row.deletedAt && row.nextRunAt === null, 'soft: the row stays, with nothing ahead');
  });

  test('a message schedule routes one message per slot; a send cut off after its run committed is finished once by the next tick', async () => {
    // Retire what the tests above made, so the ticks below run only this schedule.
    await t.app.deps.prisma.schedule.updateMany({ data: { deletedAt: new Date(), nextRunAt: null } });
    const s = await create({ cron: '0 9 * * *', timeZone: 'UTC', text: 'Draft a social post from last week’s results' });
    const id = fromGlobalId(s.id).id;
    const slot1 = new Date(s.nextRunAt!);
    const deps = t.app.deps;
    const [a, b] = await Promise.all([runDueSchedules(deps, slot1), runDueSchedules(deps, slot1)]);
    const runs1 = [...a.runs, ...b.runs];
    assert.equal(runs1.length, 1, 'two ticks at once: one run');
    assert.deepEqual([runs1[0]!.kind, runs1[0]!.slotAt.toISOString(), runs1[0]!.missedSlots], ['MESSAGE', slot1.toISOString(), 0]);
    const messages = () => deps.prisma.message.findMany({ where: { workspaceId: t.a.workspaceId, role: 'USER', text: 'Draft a social post from last week’s results' }, orderBy: { createdAt: 'asc' } });
    let sent = await messages();
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.authorUserId, t.a.ownerId, 'on its creator’s behalf');
    assert.equal(runs1[0]!.messageId, sent[0]!.id);
    const thread = await deps.prisma.thread.findUniqueOrThrow({ where: { id: sent[0]!.threadId } });
    assert.equal(thread.userId, t.a.ownerId, 'in the creator’s main thread');
    assert.equal(await deps.prisma.routeDecision.count({ where: { messageId: sent[0]!.id } }), 1, 'routed like any message');
    // The same slot again: nothing.
    assert.deepEqual((await runDueSchedules(deps, slot1)).runs, []);
    // The next day's slot: a second message.
    const slot2 = new Date(slot1.getTime() + 86_400_000);
    const second = await runDueSchedules(deps, new Date(slot2.getTime() + 5 * 60_000));
    assert.deepEqual(second.runs.map((r) => [r.slotAt.toISOString(), r.missedSlots]), [[slot2.toISOString(), 0]]);
    assert.equal((await messages()).length, 2);
    // A runner that committed the third day's run and stopped before sending: the next tick sends it, once.
    const slot3 = new Date(slot2.getTime() + 86_400_000);
    const orphan = await deps.prisma.$transaction(async (tx) => {
      const run = await insertRun(tx, { scheduleId: id, slotAt: slot3, missedSlots: 0 });
      await advanceSchedule(tx, id, { nextRunAt: new Date(slot3.getTime() + 86_400_000), lastRunAt: slot3 });
      return run!;
    });
    const young = await runDueSchedules(deps, new Date(slot3.getTime() + 60_000));
    assert.equal(young.resent, 0, 'a run younger than the grace is left to the runner sending it');
    const resent = await Promise.all([runDueSchedules(deps, new Date(slot3.getTime() + 60_000), { resendAfterMs: 0 }), runDueSchedules(deps, new Date(slot3.getTime() + 60_000), { resendAfterMs: 0 })]);
    assert.ok(resent.some((r) => r.resent === 1), 'sent by one of the ticks');
    sent = await messages();
    assert.equal(sent.length, 3, 'once, though two ticks found it unsent');
    const run3 = await deps.prisma.scheduleRun.findUniqueOrThrow({ where: { id: orphan.id } });
    assert.equal(run3.messageId, sent[2]!.id);
    // Its key names the slot: sending it again returns the first message.
    const again = await sendMessage(deps, { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) }, { workspaceId: t.a.workspaceId, text: s.text, idempotencyKey: messageKeyOf(id, slot3) });
    assert.deepEqual([again.duplicate, again.messageId], [true, sent[2]!.id]);
    const listed = (await gqlOk(t.url, t.a.ownerToken, WorkspaceSchedules, { id: ws })).workspace!.schedules.find((x) => x.id === s.id)!;
    assert.deepEqual(listed.runs.map((r) => r.slotAt), [slot3, slot2, slot1].map((d) => d.toISOString()), 'newest first');
    assert.equal(listed.runs[2]!.message?.text, 'Draft a social post from last week’s results');
  });

  test('a paused schedule never runs; a schedule whose creator left stops itself', async () => {
    await t.app.deps.prisma.schedule.updateMany({ data: { deletedAt: new Date(), nextRunAt: null } });
    const deps = t.app.deps;
    const s = await create({ cron: '*/5 * * * *', kind: 'TASK', text: 'check the inbox' });
    await gqlOk(t.url, t.a.ownerToken, PauseSchedule, { input: { scheduleId: s.id } });
    const far = new Date(Date.now() + 30 * 86_400_000);
    const tick = await runDueSchedules(deps, far);
    assert.deepEqual([tick.runs, tick.paused, tick.failed], [[], [], []]);
    assert.equal(await deps.prisma.scheduleRun.count({ where: { scheduleId: fromGlobalId(s.id).id } }), 0);
    assert.equal(await deps.prisma.task.count({ where: { title: 'check the inbox' } }), 0);
    // The member's schedule runs while they can write, and stops once they cannot.
    const theirs = await create({ cron: '0 9 * * *', kind: 'TASK', text: 'member’s daily task' }, member.token);
    await deps.prisma.membership.update({ where: { workspaceId_userId: { workspaceId: t.a.workspaceId, userId: member.id } }, data: { role: 'VIEWER' } });
    const stopped = await runDueSchedules(deps, far);
    assert.deepEqual([stopped.runs, stopped.paused], [[], [fromGlobalId(theirs.id).id]]);
    const row = await deps.prisma.schedule.findUniqueOrThrow({ where: { id: fromGlobalId(theirs.id).id } });
    assert.deepEqual([row.paused, row.version], [true, 2]);
    assert.equal(await deps.prisma.task.count({ where: { title: 'member’s daily task' } }), 0);
  });
});

// ---------------------------------------------------------------------------------------------
describe('across a restart', () => {
  const apps: App[] = [];
  /** The running app of the first test, its workspace and owner, and its runner's clock. */
  let live: { app: App; workspaceId: string; ownerId: string; now: Date } | undefined;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let filesDir: string;
  before(async () => {
    db = await createTestDatabase('schedules-restart');
    filesDir = mkdtempSync(join(tmpdir(), 'atelier-schedules-'));
  });
  after(async () => {
    for (const a of apps.splice(0)) await a.close();
    await db?.drop();
    rmSync(filesDir, { recursive: true, force: true });
  });

  test('a weekly task schedule, down for several slots, runs once on return — one task with its turn, its cap and its own plan card', async () => {
    const config = testConfig();
    const first = await createApp(config, db.url, { log: createLogger(config.logLevel) });
    apps.push(first);
    const server = await first.listen({ port: 0, host: '127.0.0.1' });
    const a = await seedWorkspace(first, 'Alpha');
    const ws = toGlobalId('Workspace', a.workspaceId);
    await gqlOk(server.url, a.ownerToken, SetTimeZone, { input: { workspaceId: ws, timeZone: 'Europe/Berlin' } });
    const s = (await gqlOk(server.url, a.ownerToken, CreateSchedule, {
      input: { workspaceId: ws, kind: 'TASK', title: 'Coffee posters', text: 'make three retro posters for a coffee brand from last week’s results', cron: '0 9 * * 1', budgetCapCents: 300 },
    })).createSchedule.schedule;
    const id = fromGlobalId(s.id).id;
    const slot0 = new Date(s.nextRunAt!);
    await first.close();
    apps.splice(apps.indexOf(first), 1);

    // Back three weeks and a day later: four Mondays came due (slot0 and the three after it).
    const latest = new Date(slot0.getTime() + 3 * 7 * 86_400_000);
    const now = new Date(latest.getTime() + 86_400_000);
    const scripted = scriptedProvider(posterModel);
    const second = await createApp(config, db.url, {
      log: createLogger(config.logLevel),
      models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted poster model (test fixture)' } },
      provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 100 } }),
      schedules: { now: () => now },
    });
    apps.push(second);
    // Two ticks at the same moment, as two workers' would.
    const [x, y] = await Promise.all([runDueSchedules(second.deps, now), runDueSchedules(second.deps, now)]);
    assert.equal(x.runs.length + y.runs.length, 1, 'one of the concurrent ticks ran it, the other found nothing to run');
    const prisma = second.deps.prisma;
    const runs = await prisma.scheduleRun.findMany({ where: { scheduleId: id } });
    assert.equal(runs.length, 1, 'one run for the whole gap');
    const run = runs[0]!;
    // The Monday 09:00 slots are DST-correct in Berlin, whichever season the test runs in.
    const expectedSlot = dueRun({ cron: '0 9 * * 1', timeZone: 'Europe/Berlin', nextRunAt: slot0 }, now)!;
    assert.deepEqual([run.slotAt.toISOString(), run.missedSlots], [expectedSlot.slotAt.toISOString(), 3]);
    assert.ok(Math.abs(expectedSlot.slotAt.getTime() - latest.getTime()) <= 3_600_000, 'the latest missed Monday');
    const tasks = await prisma.task.findMany({ where: { scheduleRunId: run.id } });
    assert.equal(tasks.length, 1, 'the task exists once');
    const task = tasks[0]!;
    assert.equal(run.taskId, task.id);
    assert.deepEqual([task.title, task.goal, task.createdById, task.budgetCapCents, task.kind], ['Coffee posters', 'make three retro posters for a coffee brand from last week’s results', a.ownerId, 300, 'PERSISTENT']);
    assert.ok((await prisma.turn.count({ where: { taskId: task.id } })) >= 1, 'with its turn');
    const schedule = await prisma.schedule.findUniqueOrThrow({ where: { id } });
    assert.equal(schedule.nextRunAt?.toISOString(), expectedSlot.nextRunAt!.toISOString(), 'the next Monday after now');
    assert.ok(schedule.nextRunAt! > now);
    assert.equal(schedule.lastRunAt?.toISOString(), now.toISOString());
    assert.equal(schedule.version, 1, 'a run is not a person’s change');
    // An ordinary task: a worker runs it; it plans, and its paid work waits for a person's approval of the plan.
    await second.startWorker({ concurrency: 1 });
    const plan = await waitFor(() => prisma.approval.findFirst({ where: { taskId: task.id, kind: 'PLAN', status: 'PENDING' } }), 'the task’s plan card', { timeoutMs: 60_000 });
    assert.ok(plan.quoteCents !== null && plan.quoteCents > 0);
    assert.equal(await prisma.generationJob.count({ where: { taskId: task.id } }), 0, 'nothing ordered before a person approves');
    assert.equal(await prisma.ledgerEntry.count({ where: { taskId: task.id, kind: 'CHARGE' } }), 0, 'nothing charged');
    const created = await prisma.taskEvent.findFirstOrThrow({ where: { taskId: task.id, type: 'TASK_CREATED' } });
    assert.equal((created.payload as { scheduleId?: string }).scheduleId, id, 'its log says which schedule started it');
    // Ticking again at the same moment, or after the run, makes nothing more.
    assert.deepEqual((await runDueSchedules(second.deps, now)).runs, []);
    assert.equal(await prisma.scheduleRun.count({ where: { scheduleId: id } }), 1);
    assert.equal(await prisma.task.count({ where: { title: 'Coffee posters' } }), 1);
    // The next Monday runs normally, with nothing missed.
    const next = await runDueSchedules(second.deps, new Date(schedule.nextRunAt!.getTime() + 60_000));
    assert.deepEqual(next.runs.map((r) => [r.slotAt.toISOString(), r.missedSlots]), [[schedule.nextRunAt!.toISOString(), 0]]);
    live = { app: second, workspaceId: a.workspaceId, ownerId: a.ownerId, now };
  });

  test('a worker runs what came due while it was down as it starts, and whenever a tick reaches its queue (pg-boss’s minute cron)', async () => {
    assert.ok(live, 'the app of the test above');
    const { workspaceId, ownerId, now } = live;
    await live.app.close();
    apps.splice(apps.indexOf(live.app), 1);
    const config = testConfig();
    const prisma = createPrisma(db.url);
    // One-offs that came due a minute before the runner's clock: one before the worker starts, one after.
    const oneOff = (title: string) =>
      prisma.schedule.create({ data: { workspaceId, createdById: ownerId, kind: 'TASK', title, text: 'a poster', runAt: new Date(now.getTime() - 60_000), nextRunAt: new Date(now.getTime() - 60_000), timeZone: 'UTC' } });
    try {
      const missed = await oneOff('Missed while down');
      const third = await createApp(config, db.url, { log: createLogger(config.logLevel), schedules: { now: () => now } });
      apps.push(third);
      await third.startWorker({ concurrency: 1 });
      // Nobody calls the runner here: the worker's start does.
      const first = await waitFor(() => prisma.scheduleRun.findFirst({ where: { scheduleId: missed.id } }), 'the run made as the worker started');
      assert.equal(first.missedSlots, 0);
      assert.equal((await prisma.schedule.findUniqueOrThrow({ where: { id: missed.id } })).nextRunAt, null, 'a one-off has nothing left');
      const boss = third.deps.scheduler.boss;
      const crons = await boss.getSchedules(SCHEDULE_TICK_QUEUE);
      assert.deepEqual(crons.map((c) => [c.name, c.cron, c.timezone]), [[SCHEDULE_TICK_QUEUE, '* * * * *', 'UTC']], 'the minute cron');
      const later = await oneOff('Due after the start');
      await boss.send(SCHEDULE_TICK_QUEUE, {});
      await waitFor(() => prisma.scheduleRun.findFirst({ where: { scheduleId: later.id } }), 'the run made by the tick on the queue');
    } finally {
      await prisma.$disconnect();
    }
  });
});
