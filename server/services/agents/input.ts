// What an agent principal may be named and hold, checked with zod at the service boundary. A refused
// input is BAD_USER_INPUT with one plain sentence naming the field, and nothing is written.
import { z } from 'zod';
import { isKnownScope } from '../../domain/agent-policy.ts';
import { parseWebhookInput } from '../webhooks/endpoint-input.ts';

export const parseAgentInput = parseWebhookInput;

const Name = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(60, 'name must be at most 60 characters')
  .refine((n) => !/[\u0000-\u001f\u007f]/.test(n), 'name must be on one line, without control characters');

const Scopes = z
  .array(z.string().max(200, 'a scope must be at most 200 characters'))
  .max(200, 'scopes: at most 200')
  .superRefine((list, ctx) => {
    const bad = list.filter((s) => !isKnownScope(s));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `scopes: ${bad.slice(0, 3).map((s) => `"${s}"`).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not a scope (tasks:write, objects:read, objects:write, jobs:order, memory:read, memory:write, agents:delegate, mcp:*, mcp:<server>:* or mcp:<server>:<tool>)`,
      });
    }
  })
  .transform((l) => [...new Set(l)].sort());

export const CreateInput = z.object({
  workspaceId: z.string().uuid(),
  /** The parent; absent: the workspace's main agent. */
  parentId: z.string().uuid().optional(),
  name: Name,
  scopes: Scopes,
});

export const UpdateInput = z.object({
  principalId: z.string().uuid(),
  baseVersion: z.number().int().min(1, 'baseVersion must be a version the agent had (1 or more)'),
  name: Name.optional(),
  scopes: Scopes.optional(),
});
