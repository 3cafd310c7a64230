// A memory's chain and where it was used, for many memories at once. The caller has loaded each
// memory through the viewer's visibility rules first (loadMemories).
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../deps.ts';
import { usesOf, versionsOf, type MemoryUseView, type VersionView } from './browse-memories.ts';

export const loadMemoryVersions = (deps: Deps, _viewer: Viewer, memoryIds: readonly string[]): Promise<VersionView[][]> => versionsOf(deps.prisma, memoryIds);

export const loadMemoryUses = (deps: Deps, _viewer: Viewer, memoryIds: readonly string[]): Promise<MemoryUseView[][]> => usesOf(deps.prisma, memoryIds);
