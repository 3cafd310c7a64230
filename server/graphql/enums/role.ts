import { builder } from '../builder.ts';

export const RoleEnum = builder.enumType('Role', {
  description: "A member's role in a workspace: it caps what their tokens' scopes allow.",
  values: {
    OWNER: { description: 'Everything, including the workspace settings.' },
    MEMBER: { description: 'Reads and writes; approves with the approve scope.' },
    VIEWER: { description: 'Reads only.' },
  } as const,
});
