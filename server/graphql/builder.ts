// Pothos configuration only: plugins, scalars and context type. Types live in ./types.
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import { badInput } from '../errors.ts';
import type { Context } from './context.ts';
import { assertNodeType, decodeNodeId } from './ids.ts';
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
    // Global ids are checked where they are decoded: a malformed id, an unknown type or a non-uuid
    // key is the caller's mistake (BAD_USER_INPUT), never a loader or driver failure.
    decodeGlobalID: (globalId) => decodeNodeId(globalId, 'id'),
    nodeQueryOptions: {
      description: 'Fetches any object by global id; objects the caller may not see are null.',
      resolve: (_root, args, _ctx, info, resolveNode) => {
        assertNodeType(info.schema, args.id.typename, 'id');
        return resolveNode(args.id);
      },
    },
    nodesQueryOptions: {
      description: `Fetches objects by global id (at most ${MAX_NODES}); objects the caller may not see are null.`,
      resolve: (_root, args, _ctx, info, resolveNodes) => {
        if (args.ids.length > MAX_NODES) throw badInput(`ids: at most ${MAX_NODES} ids per request`, { argument: 'ids' });
        for (const id of args.ids) assertNodeType(info.schema, id.typename, 'ids');
        return resolveNodes(args.ids);
      },
    },
  },
});
