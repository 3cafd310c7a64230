// Pothos configuration only: plugins, scalars and context type. Types live in ./types.
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import type { Context } from './context.ts';

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
    nodeQueryOptions: { description: 'Fetches any object by global id; objects the caller may not see are null.' },
    nodesQueryOptions: { description: 'Fetches objects by global id; objects the caller may not see are null.' },
  },
});
