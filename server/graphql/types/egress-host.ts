import { encodeGlobalID } from '@pothos/plugin-relay';
import { formatDestination } from '../../domain/egress-policy.ts';
import { builder } from '../builder.ts';
import { EgressHostSourceEnum } from '../enums/egress-host-source.ts';
import { EgressHostRef } from '../refs.ts';

builder.objectType(EgressHostRef, {
  description:
    "A host and port the workspace's outbound calls (MCP servers over HTTP, webhook deliveries, remote agents) may reach. Everything not listed is refused (EGRESS_DENIED), and so is a listed name that resolves to an internal address unless the operator allows private egress.",
  fields: (t) => ({
    id: t.id({ description: 'The entry; pass it to revokeEgressHost.', resolve: (h) => encodeGlobalID('EgressHost', h.id) }),
    host: t.exposeString('host', { description: 'The host name (lowercase; an internationalised name as punycode) or IP address.' }),
    port: t.exposeInt('port', { description: 'The port.' }),
    address: t.string({ description: 'host:port, as denials name it.', resolve: (h) => formatDestination(h) }),
    source: t.field({ type: EgressHostSourceEnum, description: 'How it came onto the list.', resolve: (h) => h.source }),
    note: t.exposeString('note', { description: 'Why it is allowed (the owner\'s note, or what registered it).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was allowed.' }),
  }),
});
