import type { WorkspaceSettings } from '../../db/generated/client.ts';
import { builder } from '../builder.ts';
import { WorkspaceSettingsRef } from '../refs.ts';

export const WorkspaceSettingsPayload = builder.objectRef<{ settings: WorkspaceSettings }>('WorkspaceSettingsPayload').implement({
  description: "The workspace's settings after a change.",
  fields: (t) => ({ settings: t.field({ type: WorkspaceSettingsRef, description: 'The settings as they are now (with their new version).', resolve: (p) => p.settings }) }),
});
