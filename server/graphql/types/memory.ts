// Long-term memory: browsing memories with provenance and history, the profile, and what
// a memory was used for. Corrections and forgetting are in ../mutations/memory-mutations.ts.
import type { ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import type { MemoryEvidence } from '../../db/generated/client.ts';
import { listMemories, loadEvidence, loadMemories, memoryProfile, type MemoryUseView, type MemoryView, type ProfileView, type VersionView } from '../../services/memory/browse-memories.ts';
import { encodeKeyset } from '../../services/keyset.ts';
import { builder } from '../builder.ts';
import { cursorConnection } from '../pagination.ts';
import { TaskRef } from './task.ts';
import { MessageRef } from './thread.ts';
import { WorkspaceRef } from './workspace.ts';

export const MemoryKindEnum = builder.enumType('MemoryKind', { values: ['PREFERENCE', 'FACT', 'BRAND_RULE', 'WORKFLOW_HABIT'] as const });
export const MemoryScopeEnum = builder.enumType('MemoryScope', {
  description: 'USER: about one person, seen only by them. WORKSPACE: for everyone in the workspace. TASK: for one task.',
  values: ['USER', 'WORKSPACE', 'TASK'] as const,
});
export const MemoryOriginEnum = builder.enumType('MemoryOrigin', {
  description: 'USER_STATED: the user said it. INFERRED: the system concluded it from what the user did (never shown as a statement).',
  values: ['USER_STATED', 'INFERRED'] as const,
});
export const MemoryVersionStatusEnum = builder.enumType('MemoryVersionStatus', {
  description: 'CURRENT: in effect. SUPERSEDED: replaced by a later version (see validTo). FORGOTTEN: cleared by forgetting; only its place in the chain remains.',
  values: ['CURRENT', 'SUPERSEDED', 'FORGOTTEN'] as const,
});
export const MemoryLinkRoleEnum = builder.enumType('MemoryLinkRole', {
  description: 'How a source supports a version. ORIGIN: it stated the value. REFINE: it added to the previous version (merged). CONFIRM: it repeated it.',
  values: ['ORIGIN', 'REFINE', 'CONFIRM'] as const,
});
export const MemoryEvidenceStatusEnum = builder.enumType('MemoryEvidenceStatus', { values: ['ACTIVE', 'REVOKED'] as const });
export const MemorySourceKindEnum = builder.enumType('MemorySourceKind', {
  description: 'MESSAGE: a message the user wrote. NOTE: a correction entered through the API. OBSERVATION: something the system observed (supports inferences only).',
  values: ['MESSAGE', 'NOTE', 'OBSERVATION'] as const,
});

const EXCERPT = 200;

export const MemoryEvidenceRef = builder.objectRef<MemoryEvidence>('MemoryEvidence');
builder.node(MemoryEvidenceRef, {
  description: 'A source memories rest on. Only its author sees its text; a revoked source keeps no text.',
  id: { resolve: (e) => e.id },
  loadManyWithoutCache: (ids, ctx) => loadEvidence(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    kind: t.field({ type: MemorySourceKindEnum, resolve: (e) => e.kind }),
    status: t.field({ type: MemoryEvidenceStatusEnum, resolve: (e) => e.status }),
    excerpt: t.string({
      nullable: true,
      description: `The first ${EXCERPT} characters of the source; null when revoked or written by someone else.`,
      resolve: (e, _a, ctx) => (e.status === 'ACTIVE' && e.userId === ctx.viewer.userId ? e.text.slice(0, EXCERPT) : null),
    }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    message: t.field({
      type: MessageRef,
      nullable: true,
      description: 'The message it came from (in your own thread only).',
      resolve: (e, _a, ctx) => (e.messageId ? ctx.loaders.message.load(e.messageId) : null),
    }),
    task: t.field({ type: TaskRef, nullable: true, description: 'The task it was written in.', resolve: (e, _a, ctx) => (e.taskId ? ctx.loaders.task.load(e.taskId) : null) }),
  }),
});

type CitationView = VersionView['links'][number];
const MemoryCitationRef = builder.objectRef<CitationView>('MemoryCitation');
builder.objectType(MemoryCitationRef, {
  description: 'Provenance: a source and how it supports a version.',
  fields: (t) => ({
    role: t.field({ type: MemoryLinkRoleEnum, resolve: (l) => l.role }),
    evidence: t.field({ type: MemoryEvidenceRef, resolve: (l) => l.evidence }),
    linkedAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const MemoryVersionRef = builder.objectRef<VersionView>('MemoryVersion');
builder.objectType(MemoryVersionRef, {
  description: 'One version in a memory chain, with its validity over time and its sources.',
  fields: (t) => ({
    number: t.exposeInt('number'),
    status: t.field({ type: MemoryVersionStatusEnum, resolve: (v) => v.status }),
    value: t.string({ nullable: true, description: 'Null once forgotten.', resolve: (v) => (v.status === 'FORGOTTEN' ? null : v.value) }),
    content: t.string({ nullable: true, description: 'The sentence remembered; null once forgotten.', resolve: (v) => (v.status === 'FORGOTTEN' ? null : v.content) }),
    origin: t.field({ type: MemoryOriginEnum, resolve: (v) => v.origin }),
    confidence: t.exposeFloat('confidence'),
    validFrom: t.expose('validFrom', { type: 'DateTime' }),
    validTo: t.expose('validTo', { type: 'DateTime', nullable: true }),
    forgottenAt: t.expose('forgottenAt', { type: 'DateTime', nullable: true }),
    derivedFromNumber: t.int({
      nullable: true,
      description: 'For a refinement: the number of the version whose content it merged.',
      resolve: async (v, _a, ctx) => (v.derivedFromId ? ((await ctx.loaders.memoryVersions.load(v.memoryId)).find((x) => x.id === v.derivedFromId)?.number ?? null) : null),
    }),
    evidence: t.field({ type: [MemoryCitationRef], resolve: (v) => v.links }),
  }),
});

const MemoryUseRef = builder.objectRef<MemoryUseView>('MemoryUse');
builder.objectType(MemoryUseRef, {
  description: "A worker step whose context included this memory (as a relevant memory or a profile entry).",
  fields: (t) => ({
    task: t.field({ type: TaskRef, nullable: true, resolve: (u, _a, ctx) => ctx.loaders.task.load(u.taskId) }),
    stepOrdinal: t.exposeInt('stepOrdinal', { description: "The step's position in the task (0-based, over all turns)." }),
    stepId: t.exposeString('stepId', { nullable: true, description: 'The step, once committed.' }),
    turnNumber: t.exposeInt('turnNumber', { nullable: true }),
    stepIndex: t.exposeInt('stepIndex', { nullable: true, description: 'The step index within its turn.' }),
    versionNumber: t.exposeInt('versionNumber', { description: 'Which version of the memory was used.' }),
    usedAt: t.expose('usedAt', { type: 'DateTime' }),
  }),
});

export const MemoryRef = builder.objectRef<MemoryView>('Memory');
builder.node(MemoryRef, {
  description: 'A remembered subject in one scope: its current version, its history and its sources.',
  id: { resolve: (m) => m.id },
  loadManyWithoutCache: (ids, ctx) => loadMemories(ctx.deps, ctx.viewer, ids),
  fields: (t) => ({
    kind: t.field({ type: MemoryKindEnum, resolve: (m) => m.kind }),
    scope: t.field({ type: MemoryScopeEnum, resolve: (m) => m.scope }),
    subjectKey: t.exposeString('subjectKey'),
    origin: t.field({ type: MemoryOriginEnum, description: 'Of the current version.', resolve: (m) => m.current.origin }),
    confidence: t.float({ resolve: (m) => m.current.confidence }),
    value: t.string({ resolve: (m) => m.current.value }),
    content: t.string({ resolve: (m) => m.current.content }),
    status: t.field({ type: MemoryVersionStatusEnum, resolve: (m) => m.current.status }),
    version: t.int({ description: 'The number of the current version.', resolve: (m) => m.current.number }),
    validFrom: t.field({ type: 'DateTime', resolve: (m) => m.current.validFrom }),
    validTo: t.field({ type: 'DateTime', nullable: true, resolve: (m) => m.current.validTo }),
    task: t.field({ type: TaskRef, nullable: true, description: 'For a task memory: its task.', resolve: (m, _a, ctx) => (m.taskId ? ctx.loaders.task.load(m.taskId) : null) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    versions: t.field({
      type: [MemoryVersionRef],
      description: 'The chain, oldest first (forgotten versions keep only their place).',
      resolve: (m, _a, ctx) => ctx.loaders.memoryVersions.load(m.id),
    }),
    evidence: t.field({
      type: [MemoryCitationRef],
      description: 'The sources of the current version.',
      resolve: async (m, _a, ctx) => (await ctx.loaders.memoryVersions.load(m.id)).find((v) => v.id === m.current.id)?.links ?? [],
    }),
    usedBy: t.field({
      type: [MemoryUseRef],
      description: "Worker steps whose context included this memory, newest first.",
      resolve: (m, _a, ctx) => ctx.loaders.memoryUses.load(m.id),
    }),
  }),
});

const MemoryProfileEntryRef = builder.objectRef<ProfileView['entries'][number]>('MemoryProfileEntry');
builder.objectType(MemoryProfileEntryRef, {
  fields: (t) => ({
    kind: t.field({ type: MemoryKindEnum, resolve: (e) => e.kind as 'PREFERENCE' }),
    subjectKey: t.exposeString('subjectKey'),
    text: t.exposeString('text'),
  }),
});

const MemoryProfileRef = builder.objectRef<ProfileView>('MemoryProfile');
builder.objectType(MemoryProfileRef, {
  description: "A snapshot of the viewer's small profile (stated user and workspace memories), as the agent sees it. A new version follows every change and every forgetting.",
  fields: (t) => ({
    version: t.exposeInt('version'),
    text: t.exposeString('text'),
    entries: t.field({ type: [MemoryProfileEntryRef], resolve: (p) => p.entries }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.objectFields(WorkspaceRef, (t) => ({
  memories: t.connection({
    type: MemoryRef,
    description: "Long-term memories the viewer may see (the workspace's workspace and task memories, and their own user memories), newest first.",
    args: {
      kind: t.arg({ type: MemoryKindEnum, required: false }),
      scope: t.arg({ type: MemoryScopeEnum, required: false }),
      subject: t.arg.string({ required: false, description: 'An exact subject key, or a prefix ending in "." (e.g. "preference.").' }),
      query: t.arg.string({ required: false, description: 'Words that must all occur in the memory (word prefixes).' }),
      includeSuperseded: t.arg.boolean({
        required: false,
        description: 'Also list inferences a stated memory overrides, and match filters against superseded versions too.',
      }),
    },
    resolve: (w, args, ctx) =>
      cursorConnection({ args, toCursor: encodeKeyset, defaultSize: 20, maxSize: 100 }, (page: ResolveCursorConnectionArgs) =>
        listMemories(
          ctx.deps,
          ctx.viewer,
          { workspaceId: w.id, kind: args.kind, scope: args.scope, subject: args.subject, query: args.query, includeSuperseded: args.includeSuperseded },
          page,
        ),
      ),
  }),
  memoryProfile: t.field({
    type: MemoryProfileRef,
    nullable: true,
    description: "The viewer's current profile snapshot in this workspace.",
    resolve: (w, _a, ctx) => memoryProfile(ctx.deps, ctx.viewer, w.id),
  }),
}));
