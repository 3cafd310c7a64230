import type { WorkspaceSettings } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { WorkspaceSettingsRef } from '../refs.ts';

export const WorkspaceSettingsPayload = builder.objectRef<{ settings: WorkspaceSettings }>('WorkspaceSettingsPayload').implement({
  fields: (t) => ({ settings: t.field({ type: WorkspaceSettingsRef, resolve: (p) => p.settings }) }),
});
