import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.ts';

builder.scalarType('DateTime', {
  description: 'An ISO-8601 timestamp in UTC, e.g. 2026-11-29T08:00:00.000Z',
  serialize: (d) => (d instanceof Date ? d : new Date(d as string)).toISOString(),
  parseValue: (v) => {
    const d = typeof v === 'string' ? new Date(v) : null;
    if (!d || Number.isNaN(d.getTime())) throw new GraphQLError('DateTime must be an ISO-8601 string');
    return d;
  },
  parseLiteral: (ast) => {
    const d = ast.kind === Kind.STRING ? new Date(ast.value) : null;
    if (!d || Number.isNaN(d.getTime())) throw new GraphQLError('DateTime must be an ISO-8601 string');
    return d;
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: () => {
    throw new GraphQLError('JSON values must be passed as variables');
  },
});
