// The app and helpers the shared-workspace tests share (test/objects-*.test.ts).
import { after, before } from 'node:test';
import type { Viewer } from '../../server/auth/viewer.ts';
import { startTestApp, type TestApp } from './app.ts';
import { gqlOk, toGlobalId } from './clients.ts';
import { CreateObject } from './object-documents.ts';

export let t: TestApp;
export let owner: Viewer;

/** One app per test file, and an owner viewer for calling the services directly. */
export function useObjectsApp(): void {
  before(async () => {
    t = await startTestApp('objects');
    owner = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  });
  after(async () => t.close());
}

export const wsA = () => toGlobalId('Workspace', t.a.workspaceId);
export const versionsOf = (objectId: string) =>
  t.app.deps.prisma.objectVersion.findMany({ where: { objectId }, orderBy: { version: 'asc' } });

export async function createDoc(markdown: string, name = 'Storyboard') {
  const r = await gqlOk(t.url, t.a.ownerToken, CreateObject, { input: { workspaceId: wsA(), kind: 'DOCUMENT', name, content: { markdown } } });
  return r.createObject.object.id;
}
