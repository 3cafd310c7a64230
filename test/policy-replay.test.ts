// Testing a changed policy against the past, and replay fixtures: recorded runs on a per-file
// database are judged again by the one policy function under a policy to try (a narrower ceiling
// lists exactly the calls it would now refuse; the recorded policy lists nothing; a tool sent to a
// person is listed as escalated), a run is saved as a fixture that replays without its database
// (and a tampered one diverges), and the operator's command does the same from the command line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { ToolMessage } from '@langchain/core/messages';
import { DEFAULT_CEILING } from '../server/domain/agent-policy.ts';
import { judgePastCalls } from '../server/domain/policy-replay.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { judgeFixture, parseFixture, pastCallsInDatabase, replayFixture, serializeFixture } from '../server/runtime/replay-fixtures.ts';
import { fixtureFiles, readPolicyFile, saveFixture } from '../server/runtime/replay-cli.ts';
import { ensureMainPrincipal } from '../server/store/agents/principals.ts';
import { harness, newTask, TEST_TOOLS, type Harness } from './helpers/runtime-harness.ts';

const run = promisify(execFile);
let h: Harness;
let taskId = '';
let chargeCallId = '';
const dir = mkdtempSync(join(tmpdir(), 'atelier-replays-'));

before(async () => {
  // The model charges once (jobs:order, allowed by the default ceiling), notes it, and completes.
  h = await harness('policy-replay', ({ messages }) => {
    const done = messages.filter((m) => m instanceof ToolMessage).length;
    if (done === 0) return { content: 'Charging.', toolCalls: [{ name: 'charge', args: { cents: 250 } }] };
    if (done === 1) return { content: 'Noting.', toolCalls: [{ name: 'add_note', args: { text: 'charged 2.50' } }] };
    return { content: 'Done.', toolCalls: [{ name: 'complete_task', args: { summary: 'charged and noted' } }] };
  }, TEST_TOOLS);
  const { task, turnId } = await newTask(h, 'a run to judge again');
  taskId = task.id;
  assert.equal((await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' })).outcome, 'completed');
  chargeCallId = (await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId, name: 'charge' } })).id;
});
after(async () => {
  await h.t.close();
});

test('the recorded calls carry what was decided then: the agent, its version, the rule and the scope each needed', async () => {
  const calls = await pastCallsInDatabase(h.t.app.deps.prisma, { workspaceId: h.t.a.workspaceId });
  const main = await ensureMainPrincipal(h.t.app.deps.prisma, h.t.a.workspaceId);
  const charge = calls.find((c) => c.callId === chargeCallId)!;
  assert.deepEqual(
    { tool: charge.tool, agent: charge.agent, recorded: charge.recorded, params: charge.params },
    { tool: 'charge', agent: { id: main.id, name: 'Atelier', version: main.version }, recorded: { allowed: true, rule: 'declared-scope', scope: 'jobs:order' }, params: { cents: 250 } },
  );
  assert.deepEqual(calls.map((c) => c.tool).sort(), ['add_note', 'charge', 'complete_task']);
});

test('a narrower ceiling lists exactly the past calls it would deny; the recorded ceiling lists nothing; an escalated tool is listed', async () => {
  const calls = await pastCallsInDatabase(h.t.app.deps.prisma, { workspaceId: h.t.a.workspaceId });
  assert.deepEqual(judgePastCalls(calls, {}), [], 'the policy as recorded changes nothing');
  assert.deepEqual(judgePastCalls(calls, { ceiling: [...DEFAULT_CEILING] }), [], 'the default ceiling allowed all of it');

  const narrower = judgePastCalls(calls, { ceiling: DEFAULT_CEILING.filter((s) => s !== 'jobs:order') });
  assert.deepEqual(narrower.map((f) => [f.now, f.tool, f.callId, f.decision?.allowed ? 'allowed' : f.decision?.rule]), [['deny', 'charge', chargeCallId, 'scope-not-granted']]);
  assert.match(narrower[0]!.decision && !narrower[0]!.decision.allowed ? narrower[0]!.decision.reason : '', /jobs:order/);

  // Per agent name wins over the ceiling; another agent's entry changes nothing here.
  assert.equal(judgePastCalls(calls, { ceiling: [], agents: { Atelier: [...DEFAULT_CEILING] } }).length, 0);
  assert.equal(judgePastCalls(calls, { agents: { 'Some other agent': [] } }).length, 0);

  // A tool's scope changed by the policy: notes now need memory:write, which the ceiling lacks.
  const moved = judgePastCalls(calls, { ceiling: DEFAULT_CEILING.filter((s) => s !== 'memory:write'), toolScopes: { add_note: 'memory:write' } });
  assert.deepEqual(moved.map((f) => f.tool), ['add_note']);

  const escalated = judgePastCalls(calls, { escalate: ['charge'] });
  assert.deepEqual(escalated.map((f) => [f.now, f.tool]), [['escalate', 'charge']]);
});

test('a run saved as a fixture replays without its database, is judged the same, and a tampered one diverges', async () => {
  const file = await saveFixture(h.t.app.deps.prisma, taskId, { dir, reason: 'kept for the policy suite' });
  assert.deepEqual(fixtureFiles(dir), [file]);
  const fixture = parseFixture(readFileSync(file, 'utf8'));
  assert.equal(fixture.reason, 'kept for the policy suite');
  assert.ok(fixture.input.steps.length >= 3, 'the steps are in it');
  assert.ok(fixture.input.steps[0]!.createdAt instanceof Date, 'dates survive the round trip');
  const report = replayFixture(fixture);
  assert.equal(report.divergence, null, JSON.stringify(report.divergence));
  assert.equal(report.toolCalls, 3);

  const fromDb = judgePastCalls(await pastCallsInDatabase(h.t.app.deps.prisma, { workspaceId: h.t.a.workspaceId }), { ceiling: [] });
  const fromFixture = judgeFixture(fixture, { ceiling: [] });
  assert.deepEqual(fromFixture.map((f) => f.callId), fromDb.map((f) => f.callId));
  assert.equal(fromFixture.length, 3);

  // Someone edits what the model decided: the replay finds it.
  const tampered = parseFixture(serializeFixture(fixture));
  (tampered.input.steps[1]!.decision as { toolCalls: { name: string }[] }).toolCalls[0]!.name = 'charge';
  assert.equal(replayFixture(tampered).divergence?.kind, 'decision');
});

test('the command: --policy against the database and against fixtures, and a bad policy file is refused with its reason', async () => {
  const policies = mkdtempSync(join(tmpdir(), 'atelier-policies-'));
  const policy = join(policies, 'no-spending.json');
  writeFileSync(policy, JSON.stringify({ description: 'No agent spends money', ceiling: DEFAULT_CEILING.filter((s) => s !== 'jobs:order') }));
  const env = { ...process.env, DATABASE_URL: h.t.dbUrl, ATELIER_LOG_LEVEL: 'error' };
  const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'replay', ...args], { env, cwd: process.cwd() });
  const db = await cli('--policy', policy);
  assert.match(db.stdout, /policy: No agent spends money/);
  assert.match(db.stdout, new RegExp(`would DENY\\s+task ${taskId} turn 1 step \\d+: Atelier v\\d+ called charge — allowed then \\(declared-scope\\); now: scope-not-granted`));
  assert.match(db.stdout, /1 past action\(s\) would now be denied, 0 escalated/);
  const fx = await cli('--policy', policy, '--fixtures', dir);
  assert.match(fx.stdout, /1 past action\(s\) would now be denied/);

  const bad = join(policies, 'bad.policy.json');
  writeFileSync(bad, JSON.stringify({ ceiling: 'everything', surprise: true }));
  assert.throws(() => readPolicyFile(bad), /bad\.policy\.json: .*ceiling/);
});
