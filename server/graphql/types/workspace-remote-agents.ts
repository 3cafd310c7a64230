// Workspace.remoteAgents: the remote A2A agents the workspace's agent may delegate to.
import { listRemoteAgents } from '../../services/a2a/remote-agents.ts';
import { builder } from '../builder.ts';
import { RemoteAgentRef, WorkspaceRef } from '../refs.ts';

builder.objectFields(WorkspaceRef, (t) => ({
  remoteAgents: t.field({
    type: [RemoteAgentRef],
    description: 'The remote A2A agents the workspace\'s agent may hand a step to, by name. Owners register and remove them (registerRemoteAgent, removeRemoteAgent).',
    resolve: (w, _a, ctx) => listRemoteAgents(ctx.deps, ctx.viewer, w.id),
  }),
}));
