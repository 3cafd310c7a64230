import { performance } from 'node:perf_hooks';
import { ToolMessage } from '@langchain/core/messages';
import pg from 'pg';
import { z } from 'zod';
import { runTurn } from '../../server/runtime/engine.ts';
import { scriptedProvider } from '../../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../../server/runtime/models/scripted-model.ts';
import { defineTool } from '../../server/runtime/tools/types.ts';
import { createTask } from '../../server/services/tasks/create-task.ts';
import { startTestApp } from '../helpers/app.ts';

let inQuery = 0, qStart = 0, qTime = 0, nq = 0;
const byHead = new Map<string, { n: number; ms: number }>();
const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
const orig = proto.query;
let on = false;
proto.query = function (this: object, ...args: unknown[]) {
  const r = orig.apply(this, args) as Promise<unknown>;
  if (on && r && typeof (r as Promise<unknown>).then === 'function') {
    const q = args[0] as { text?: string } | string;
    const text = (typeof q === 'string' ? q : q.text ?? '').replace(/\s+/g, ' ').slice(0, 60);
    const s = performance.now();
    nq++;
    void r.then(() => { const d = performance.now() - s; const e = byHead.get(text) ?? { n: 0, ms: 0 }; e.n++; e.ms += d; byHead.set(text, e); qTime += d; }, () => {});
  }
  return r;
};
const noop = defineTool({ name: 'bench_noop', domain: 'core', description: 'x', input: z.object({ k: z.number() }), output: z.object({ k: z.number() }), safety: 'IDEMPOTENT', async run(i) { return { k: i.k }; } });
const model = new ScriptedChatModel(({ messages }) => {
  const done = messages.filter((m) => m instanceof ToolMessage && m.name === 'bench_noop').length;
  if (done < 9) return { content: 's', toolCalls: [{ name: 'bench_noop', args: { k: done } }] };
  return { content: 'd', toolCalls: [{ name: 'complete_task', args: { summary: 'x' } }] };
});
const t = await startTestApp('prof', { runtime: { leaseMs: 30000, watchdogMs: 1000, staleQueuedMs: 30000, workerConcurrency: 4, maxStepsPerTurn: 50, maxTurnsPerTask: 25, plugin: undefined } }, { models: scriptedProvider(model), tools: [noop] });
const viewer = { userId: t.a.ownerId, credentialId: 'b', scopes: new Set(['READ', 'WRITE', 'APPROVE'] as const), memberships: new Map([[t.a.workspaceId, 'OWNER' as const]]) };
async function one() {
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'p' });
  const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
  const s = performance.now();
  await runTurn(t.app.deps.runtime, turn.id, { workerId: 'x:1:y' });
  return performance.now() - s;
}
for (let i = 0; i < 3; i++) await one();
on = true;
let tot = 0;
const cpu0 = process.cpuUsage();
for (let i = 0; i < 5; i++) tot += await one();
const cpu = process.cpuUsage(cpu0);
on = false;
console.log('per step ms', (tot / 50).toFixed(2), 'queries/step', (nq / 50).toFixed(1), 'query wall ms/step', (qTime / 50).toFixed(2), 'cpu ms/step', ((cpu.user + cpu.system) / 1000 / 50).toFixed(2));
console.log([...byHead].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25).map(([k, v]) => `${(v.ms / 50).toFixed(2)}ms/step n=${(v.n/50).toFixed(1)} avg=${(v.ms/v.n).toFixed(2)} ${k}`).join('\n'));
await t.close();
process.exit(0);
