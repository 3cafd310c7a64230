// Who may call each mutation: the role × scope × principal matrix, in one place. Every mutation of
// the schema has exactly one entry (a test compares this table with the schema, and the GraphQL
// layer refuses a mutation without one). The services check the same rules again where they need
// the object's workspace (membership, NOT_FOUND for other workspaces); this table is the contract.
//
// Principals: HUMAN (a person's token or web session) and SERVICE (an integration's token). Settings
// that govern spending — confirmation-free amounts, autonomy, budgets — and decisions on approvals
// are a person's: an integration may ask for paid work but never loosen what needs confirming.
import { AppError } from '../errors.ts';
import type { Role, Scope, Viewer } from './viewer.ts';

export type Principal = 'HUMAN' | 'SERVICE';
export type MutationRule = {
  /** The scope the credential needs. */
  scope: Scope;
  /** Roles in the credential's workspace that may call it. */
  roles: readonly Role[];
  principals: readonly Principal[];
};

const MEMBERS: readonly Role[] = ['OWNER', 'MEMBER'];
const OWNERS: readonly Role[] = ['OWNER'];
const ANYONE: readonly Principal[] = ['HUMAN', 'SERVICE'];
const PEOPLE: readonly Principal[] = ['HUMAN'];

const write: MutationRule = { scope: 'WRITE', roles: MEMBERS, principals: ANYONE };

export const mutationPolicy: Readonly<Record<string, MutationRule>> = {
  // Tasks and the thread.
  createTask: write,
  updateTask: write,
  archiveTask: write,
  promoteTask: write,
  mergeTasks: write,
  signalTask: write,
  editChecklist: write,
  // A fork is a new task; the task it comes from is only read.
  forkTask: write,
  sendMessage: write,
  answerCard: write,
  withdrawMessage: write,
  replaceMessage: write,
  rerouteMessage: write,
  // Workspace objects. Deleting only asks: the deletion waits for a person's approval.
  createObject: write,
  updateObject: write,
  editDocument: write,
  editFlow: write,
  deleteObject: write,
  // Memory. Forgetting only asks, like deleting.
  correctMemory: write,
  forgetMemory: write,
  forgetEvidence: write,
  // After a forgetting, its requester chooses which works to clean: a person's choice.
  redactWorks: { scope: 'WRITE', roles: MEMBERS, principals: PEOPLE },
  // Spending and approvals: people only.
  resolveApproval: { scope: 'APPROVE', roles: MEMBERS, principals: PEOPLE },
  updateTaskLimits: { scope: 'WRITE', roles: MEMBERS, principals: PEOPLE },
  updateWorkspaceSettings: { scope: 'WRITE', roles: OWNERS, principals: PEOPLE },
  // Webhooks carry the workspace's events to a third party: its owners set them up. An
  // integration's token may (it is usually the integrator who registers its receiver); it needs
  // an owner's role like anyone else.
  createWebhookEndpoint: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  updateWebhookEndpoint: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  deleteWebhookEndpoint: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  rotateWebhookSecret: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  redeliverWebhook: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  sendTestWebhook: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  // Where the workspace's outbound calls may go: its owners decide, like MCP servers and webhooks.
  allowEgressHost: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  revokeEgressHost: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  // Remote agents the workspace's agent may hand steps to (and whose hosts it reaches): owners.
  registerRemoteAgent: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  removeRemoteAgent: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  // MCP servers hand the agent a third party's tools (and may hold its token): owners set them up.
  registerMcpServer: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  updateMcpServer: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  removeMcpServer: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  refreshMcpServer: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  // The key that signs the agents' credentials: its owners rotate it (an integration with an owner's
  // role may, for a scheduled rotation; rotating loosens nothing).
  rotateAgentSigningKey: { scope: 'WRITE', roles: OWNERS, principals: ANYONE },
  // Schedules: members make their own (the services let only the creator change what one says or
  // when, and the creator or an owner pause, resume or delete it). An integration may schedule work
  // like it may start it; a cap above the workspace's default is a person's (services/schedules).
  createSchedule: write,
  updateSchedule: write,
  pauseSchedule: write,
  resumeSchedule: write,
  deleteSchedule: write,
  // The agent's follow-ups: anyone who may write to the task may stop the agent coming back to it
  // (cancelling spends nothing and loosens nothing).
  cancelFollowUp: write,
  // Agent principals: what the agent may do is the owners' decision, and a person's.
  createAgentPrincipal: { scope: 'WRITE', roles: OWNERS, principals: PEOPLE },
  updateAgentPrincipal: { scope: 'WRITE', roles: OWNERS, principals: PEOPLE },
};

/** Why the viewer may not call `mutation`, or null when it may. Unknown mutations are refused. */
export function mutationRefusal(mutation: string, viewer: Viewer): string | null {
  const rule = mutationPolicy[mutation];
  if (!rule) return `${mutation} is not open to any credential`;
  const principal: Principal = viewer.principal === 'HUMAN' ? 'HUMAN' : 'SERVICE';
  if (!rule.principals.includes(principal)) {
    return `${mutation} needs a person's credential; this token belongs to an integration`;
  }
  if (!viewer.scopes.has(rule.scope)) return `This token lacks the ${rule.scope.toLowerCase()} scope needed for ${mutation}`;
  // A credential is bound to one workspace: its role there is the role that counts.
  const roles = [...viewer.memberships.values()];
  if (!roles.some((r) => rule.roles.includes(r))) {
    const role = roles[0]?.toLowerCase() ?? 'non-member';
    return `A ${role} cannot call ${mutation}; it needs the role ${rule.roles.map((r) => r.toLowerCase()).join(' or ')}`;
  }
  return null;
}

export function authorizeMutation(mutation: string, viewer: Viewer): void {
  const why = mutationRefusal(mutation, viewer);
  if (why) throw new AppError('FORBIDDEN', why, { mutation });
}
