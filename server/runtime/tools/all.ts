// Every built-in tool, in the order the registry offers them. The composition root (app.ts) adds a
// plugin's and a test's tools after these; the policy's table-driven test iterates this list, so a
// new built-in tool without a scope in TOOL_SCOPES (domain/agent-policy.ts) fails it.
import type { JobDeps } from '../../generation/jobs.ts';
import type { Capabilities } from '../capabilities.ts';
import { delegationTools, type DelegationDeps } from '../a2a/delegate.ts';
import { builtinTools } from './builtin.ts';
import { checklistTools } from './checklist.ts';
import { followUpTools, type FollowUpToolDeps } from './follow-ups.ts';
import { generationTools } from './generation.ts';
import { objectTools } from './objects.ts';
import type { ToolDef } from './types.ts';

export function allBuiltinTools(capabilities: Capabilities, jobs: JobDeps, out: DelegationDeps = {}, followUps: FollowUpToolDeps = {}): ToolDef[] {
  return [...builtinTools, ...checklistTools(capabilities), ...objectTools, ...generationTools(jobs), ...delegationTools(out), ...followUpTools(followUps)];
}
