// Every reason an error can carry in `extensions.reason` is a row of the one table in
// server/errors.ts, and the schema publishes that table as the ErrorReason enum. The type system
// keeps loose reasons out (a reason that is not in the table does not compile); the sources use the
// table's names, never string copies; and real refused writes answer with reasons from the enum.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { isEnumType, parse } from 'graphql';
import ts from 'typescript';
import { errorReasons } from '../server/errors.ts';
import { schema } from '../server/graphql/schema.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateObject, EditDocument, EditFlow, UpdateObject } from './helpers/object-documents.ts';

const root = new URL('../', import.meta.url).pathname;
const table = Object.keys(errorReasons).sort();

function enumValues(): { name: string; description: string | null | undefined }[] {
  const e = schema.getType('ErrorReason');
  assert.ok(e && isEnumType(e), 'the schema has an ErrorReason enum');
  return e.getValues().map((v) => ({ name: v.name, description: v.description }));
}

function serverSources(dir = join(root, 'server')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return path.endsWith('/db/generated') ? [] : serverSources(path);
    return /\.(ts|mts)$/.test(d.name) ? [path] : [];
  });
}

test('the ErrorReason enum is the table: every reason, each with its description, in schema.graphql too', () => {
  const values = enumValues();
  assert.deepEqual(values.map((v) => v.name).sort(), table);
  for (const v of values) assert.ok(v.description && v.description.length > 20, `${v.name} is described`);
  const printed = readFileSync(join(root, 'schema.graphql'), 'utf8');
  assert.match(printed, /^enum ErrorReason \{/m);
  for (const r of table) assert.match(printed, new RegExp(`^  ${r}$`, 'm'));
  assert.match(printed, /errorReasons: \[ErrorReason!\]!/);
});

test('a reason that is not in the table does not compile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-reasons-'));
  try {
    const errors = JSON.stringify(join(root, 'server/errors.ts'));
    const lines = [
      `import { AppError, badInput, conflict, ErrorReason } from ${errors};`,
      `export const fine = conflict('x', { reason: ErrorReason.STALE_BASE_VERSION, currentVersion: 2 });`,
      `export const noReason = badInput('x', { argument: 'edits' });`,
      `export const loose = conflict('x', { reason: 'NOT_IN_THE_TABLE' });`,
      `const widened = { reason: 'STALE_BASE_VERSION', currentVersion: 2 };`,
      `export const copied = badInput('x', widened);`,
      `export const direct = new AppError('CONFLICT', 'x', { reason: 'ALSO_NOT_A_REASON' });`,
    ];
    const probe = join(dir, 'probe.mts');
    writeFileSync(probe, lines.join('\n') + '\n');
    const program = ts.createProgram([probe], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: [],
    });
    const failing = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === probe)
      .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1);
    // Lines 4 (a loose literal), 6 (a string copied in a plain object) and 7 (straight to AppError).
    assert.deepEqual([...new Set(failing)].sort(), [4, 6, 7]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the server names reasons through the table only, and emits every reason the table lists', () => {
  const loose: string[] = [];
  const used = new Set<string>();
  for (const file of serverSources()) {
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    for (const m of text.matchAll(/ErrorReason\.([A-Z_]+)/g)) used.add(m[1]!);
    if (where === 'server/errors.ts') continue;
    for (const r of table) if (new RegExp(`['"\`]${r}['"\`]`).test(text)) loose.push(`${where}: '${r}'`);
  }
  assert.deepEqual(loose, [], 'a reason is written as ErrorReason.NAME, never as a string of its own');
  assert.deepEqual([...used].sort(), table, 'every reason in the table is set somewhere (and nothing else is)');
});

describe('over the API', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('error-reasons');
  });
  after(async () => t.close());

  const ErrorReasons = parse('query ErrorReasons { errorReasons }') as TypedDocumentNode<{ errorReasons: string[] }, Record<string, never>>;

  test('errorReasons lists the table, and refused writes answer with reasons from it', async () => {
    const listed = await gqlOk(t.url, t.a.readToken, ErrorReasons, {});
    assert.deepEqual([...listed.errorReasons].sort(), table);
    const reasons = new Set(enumValues().map((v) => v.name));
    const ws = toGlobalId('Workspace', t.a.workspaceId);

    const doc = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: ws, kind: 'DOCUMENT', name: 'Brief', content: { markdown: 'warm light\n\nwarm light\n' } } });
    const id = doc.createObject.object.id;
    const twice = await gql(t.url, t.a.ownerToken, EditDocument, { input: { objectId: id, baseVersion: 1, edits: [{ find: 'warm light', replace: 'cool light' }] } });
    assert.equal(twice.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.equal(twice.errors?.[0]?.extensions?.reason, 'FIND_NOT_UNIQUE');
    await gqlOk(t.url, t.a.ownerToken, UpdateObject, { input: { objectId: id, baseVersion: 1, content: { markdown: 'cool light\n' } } });
    const stale = await gql(t.url, t.a.ownerToken, UpdateObject, { input: { objectId: id, baseVersion: 1, content: { markdown: 'overwrite\n' } } });
    assert.equal(stale.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(stale.errors?.[0]?.extensions?.reason, 'STALE_BASE_VERSION');

    const flow = { nodes: [{ id: 'prompt', kind: 'text', params: { text: 'a fox' } }], edges: [] };
    const f = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: ws, kind: 'FLOW', name: 'Fox', content: flow } });
    const flowId = f.createObject.object.id;
    await gqlOk(t.url, t.a.ownerToken, EditFlow, { input: { objectId: flowId, baseVersion: 1, ops: [{ op: 'update_node', nodeId: 'prompt', params: { text: 'a cat' } }] } });
    const clash = await gql(t.url, t.a.ownerToken, EditFlow, { input: { objectId: flowId, baseVersion: 1, ops: [{ op: 'update_node', nodeId: 'prompt', params: { text: 'a dog' } }] } });
    assert.equal(clash.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(clash.errors?.[0]?.extensions?.reason, 'NODE_CONFLICT');

    for (const r of [twice, stale, clash]) assert.ok(reasons.has(String(r.errors?.[0]?.extensions?.reason)), 'the reason is a value of ErrorReason');
  });
});
