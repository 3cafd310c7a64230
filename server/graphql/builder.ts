// Pothos configuration only: plugins, scalars and context type. Types live in ./types.
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import { badInput } from '../errors.ts';
import type { Context } from './context.ts';
import { assertNodeId, lenientNodeId } from './ids.ts';
import { MAX_NODE_IDS as MAX_NODES } from './limits.ts';

export const builder = new SchemaBuilder<{
  Context: Context;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [RelayPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // The relay boilerplate is described like every other part of the schema.
    idFieldOptions: { description: 'The global id: base64 of "<Type>:<key>", the one id format of this API. Pass it to node(id) and to any argument naming this object.' },
    nodeTypeOptions: { description: 'Anything that can be fetched by its global id with node(id) or nodes(ids).' },
    pageInfoTypeOptions: { description: 'Where a page of a connection sits in the whole list.' },
    hasNextPageFieldOptions: { description: 'True when more items follow this page (ask with after: endCursor).' },
    hasPreviousPageFieldOptions: { description: 'True when items come before this page (ask with before: startCursor).' },
    startCursorFieldOptions: { description: "The first item's cursor; null on an empty page." },
    endCursorFieldOptions: { description: "The last item's cursor; null on an empty page." },
    cursorFieldOptions: { description: "This item's place in the list: pass it as after (or before) to page from here." },
    nodeFieldOptions: { description: 'The item.' },
    edgesFieldOptions: { description: 'The items of this page, each with its cursor.' },
    pageInfoFieldOptions: { description: 'Where this page sits in the whole list.' },
    firstArgOptions: { description: "At most this many items from the start (or after `after`); 0..the connection's page limit." },
    lastArgOptions: { description: "At most this many items from the end (or before `before`); 0..the connection's page limit." },
    afterArgOptions: { description: 'Items after this cursor (an edge cursor or pageInfo.endCursor this connection handed out).' },
    beforeArgOptions: { description: 'Items before this cursor (an edge cursor or pageInfo.startCursor this connection handed out).' },
    defaultConnectionTypeOptions: { description: 'A page of a list: its items (edges) and where the page sits (pageInfo).' },
    defaultEdgeTypeOptions: { description: 'One item of a page, with its cursor.' },
    // Global ids are checked by the resolvers, which know the argument's name (ids.ts): a malformed
    // id, an unknown type or a non-uuid key is the caller's mistake (BAD_USER_INPUT naming `id` or
    // `ids`), never a loader or driver failure.
    decodeGlobalID: (globalId) => lenientNodeId(globalId),
    nodeQueryOptions: {
      description: 'Fetches any object by global id; objects the caller may not see are null.',
      args: { id: { description: 'A global id this API handed out (a raw key or garbage is BAD_USER_INPUT).' } },
      resolve: (_root, args, _ctx, info, resolveNode) => {
        assertNodeId(info.schema, args.id, 'id');
        return resolveNode(args.id);
      },
    },
    nodesQueryOptions: {
      description: `Fetches objects by global id (at most ${MAX_NODES}); objects the caller may not see are null.`,
      args: { ids: { description: `Global ids this API handed out, at most ${MAX_NODES}; the answer has one entry per id, in order.` } },
      resolve: (_root, args, _ctx, info, resolveNodes) => {
        if (args.ids.length > MAX_NODES) throw badInput(`ids: at most ${MAX_NODES} ids per request`, { argument: 'ids' });
        for (const id of args.ids) assertNodeId(info.schema, id, 'ids');
        return resolveNodes(args.ids);
      },
    },
  },
});
