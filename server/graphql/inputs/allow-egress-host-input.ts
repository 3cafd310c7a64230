import { builder } from '../builder.ts';

export const AllowEgressHostInput = builder.inputType('AllowEgressHostInput', {
  description: "A host the workspace's outbound calls may reach.",
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace.' }),
    host: t.string({ required: true, description: 'A host name or IP address, optionally with :port (e.g. tools.example.com or tools.example.com:8443); no scheme, path or wildcard.' }),
    port: t.int({ required: false, description: 'The port, when not given in host (default 443).' }),
    note: t.string({ required: false, description: 'Why it is allowed (at most 200 characters).' }),
  }),
});
