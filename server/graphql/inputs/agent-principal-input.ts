import { builder } from '../builder.ts';

export const CreateAgentPrincipalInput = builder.inputType('CreateAgentPrincipalInput', {
  description: 'A new sub-agent: its ceiling must be a strict subset of its parent\'s.',
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace.' }),
    parentId: t.id({ required: false, description: "The agent it is a sub-agent of (default: the workspace's main agent)." }),
    name: t.string({ required: true, description: 'The name people see, unique in the workspace.' }),
    scopes: t.stringList({ required: true, description: 'Its ceiling (see AgentPrincipal.scopes): less than its parent holds.' }),
  }),
});

export const UpdateAgentPrincipalInput = builder.inputType('UpdateAgentPrincipalInput', {
  description: "Changes to an agent principal, made against the version you saw: the fields given are replaced, the others stay. A ceiling narrower than one of its sub-agents' is refused: narrow the sub-agents first.",
  fields: (t) => ({
    agentId: t.id({ required: true, description: 'The agent.' }),
    baseVersion: t.int({ required: true, description: 'The version you saw (AgentPrincipal.version); a change based on an older one is refused with CONFLICT.' }),
    name: t.string({ required: false, description: 'A new name.' }),
    scopes: t.stringList({ required: false, description: 'A new ceiling.' }),
  }),
});
