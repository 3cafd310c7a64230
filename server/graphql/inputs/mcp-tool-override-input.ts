import { builder } from '../builder.ts';
import { McpToolSafetyEnum } from '../enums/mcp-tool-safety.ts';

export const McpToolOverrideInput = builder.inputType('McpToolOverrideInput', {
  description: "An owner's setting for one tool, winning over what the server says.",
  fields: (t) => ({
    tool: t.string({ required: true, description: 'The tool\'s name (one of the server\'s pinned tools).' }),
    safety: t.field({ type: McpToolSafetyEnum, required: false, description: 'Its safety (none: as the server says).' }),
    destructive: t.boolean({ required: false, description: 'Whether a call may destroy something, so a person agrees first (none: as the server says).' }),
    priceCents: t.int({ required: false, description: 'What one call costs, in cents (none: the server\'s price per call).' }),
  }),
});
