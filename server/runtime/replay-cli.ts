// The operator's side of replay fixtures and policy replay (`npm run replay -- --save …` and
// `npm run replay -- --policy …`; server/cli.ts hands them here). Reads only.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PrismaClient } from '../db/client.ts';
import { judgePastCalls, PolicyFileSchema, type Finding, type PolicyFile } from '../domain/policy-replay.ts';
import { describeFinding, fixtureOfTask, judgeFixture, parseFixture, pastCallsInDatabase, serializeFixture } from './replay-fixtures.ts';

export const DEFAULT_FIXTURE_DIR = 'test/fixtures/replays';

/** A task's uuid, or its GraphQL global id. */
export function taskIdOf(raw: string): string {
  const decoded = Buffer.from(raw, 'base64').toString('utf8');
  return decoded.startsWith('Task:') ? decoded.slice(5) : raw;
}

export function readPolicyFile(path: string): PolicyFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: not a JSON file (${(e as Error).message})`);
  }
  const parsed = PolicyFileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Saves a task's run as a fixture; returns the file written. */
export async function saveFixture(prisma: PrismaClient, rawTaskId: string, opts: { reason?: string; dir?: string } = {}): Promise<string> {
  const taskId = taskIdOf(rawTaskId);
  const fixture = await fixtureOfTask(prisma, taskId, opts.reason ?? '');
  const dir = resolve(opts.dir ?? DEFAULT_FIXTURE_DIR);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${taskId}.json`);
  writeFileSync(file, serializeFixture(fixture));
  return file;
}

/** A fixture file, or an error naming it. */
export function readFixture(file: string) {
  try {
    return parseFixture(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

/** Every fixture file of a directory (none when it does not exist). */
export function fixtureFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** Judges a policy against the database's recorded runs (or a directory of fixtures). */
export async function policyFindings(prisma: PrismaClient | null, policy: PolicyFile, opts: { workspaceId?: string; since?: Date; fixtures?: string }): Promise<Finding[]> {
  if (opts.fixtures) return fixtureFiles(opts.fixtures).flatMap((f) => judgeFixture(readFixture(f), policy));
  if (!prisma) return [];
  return judgePastCalls(await pastCallsInDatabase(prisma, { ...(opts.workspaceId ? { workspaceId: opts.workspaceId } : {}), ...(opts.since ? { since: opts.since } : {}) }), policy);
}

/** The CLI: returns the exit code (0; 2 on bad input). */
export async function replayTools(
  prisma: PrismaClient,
  values: { save?: string; reason?: string; dir?: string; policy?: string; workspace?: string; since?: string; fixtures?: string },
): Promise<number> {
  if (values.save) {
    const file = await saveFixture(prisma, values.save, { ...(values.reason ? { reason: values.reason } : {}), ...(values.dir ? { dir: values.dir } : {}) });
    console.log(`saved ${file}; npm run eval:replays replays it with every other fixture`);
    return 0;
  }
  const policy = readPolicyFile(values.policy!);
  let since: Date | undefined;
  if (values.since) {
    since = new Date(values.since);
    if (Number.isNaN(since.getTime())) {
      console.error(`--since: not a date: ${values.since}`);
      return 2;
    }
  }
  let workspaceId: string | undefined;
  if (values.workspace) {
    const w = await prisma.workspace.findFirst({ where: { slug: values.workspace }, select: { id: true } });
    if (!w) {
      console.error(`--workspace: no workspace with the slug ${values.workspace}`);
      return 2;
    }
    workspaceId = w.id;
  }
  const findings = await policyFindings(prisma, policy, { ...(workspaceId ? { workspaceId } : {}), ...(since ? { since } : {}), ...(values.fixtures ? { fixtures: values.fixtures } : {}) });
  if (policy.description) console.log(`policy: ${policy.description}`);
  for (const f of findings) console.log(describeFinding(f));
  const denied = findings.filter((f) => f.now === 'deny').length;
  console.log(`${findings.length ? '' : 'nothing changes: '}${denied} past action(s) would now be denied, ${findings.length - denied} escalated`);
  return 0;
}
