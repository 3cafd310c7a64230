// Global ids in arguments: decoded and checked against the expected type; anything else is
// BAD_USER_INPUT (never a driver error from a malformed uuid).
import { decodeGlobalID } from '@pothos/plugin-relay';
import type { GraphQLSchema } from 'graphql';
import { isObjectType } from 'graphql';
import { badInput } from '../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * base64("<Type>:<uuid>") → its parts. Every node of this API is keyed by a UUID, so an id that does
 * not decode to one cannot name an object, and must never reach a uuid column.
 */
export function decodeNodeId(globalId: string, argument: string): { typename: string; id: string } {
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(globalId);
  } catch {
    throw badInput(`${argument} is not a valid id`, { argument });
  }
  if (!UUID.test(decoded.id)) throw badInput(`${argument} is not a valid id`, { argument });
  return { typename: decoded.typename, id: decoded.id.toLowerCase() };
}

export function parseGlobalId(globalId: string, typename: string, argument: string): string {
  const decoded = decodeNodeId(globalId, argument);
  if (decoded.typename !== typename) throw badInput(`${argument} must be the id of a ${typename}`, { argument });
  return decoded.id;
}

/** An optional id argument: absent (null/undefined) is no id; anything else — "" too — must be a valid one. */
export function parseOptionalGlobalId(globalId: unknown, typename: string, argument: string): string | undefined {
  return globalId === null || globalId === undefined ? undefined : parseGlobalId(String(globalId), typename, argument);
}

/** node(id)/nodes(ids): a well-formed id of a type that is not a Node names nothing we could load. */
export function assertNodeType(schema: GraphQLSchema, typename: string, argument: string): void {
  const type = schema.getType(typename);
  if (!isObjectType(type) || !type.getInterfaces().some((i) => i.name === 'Node')) {
    throw badInput(`${argument} is not the id of any kind of object`, { argument });
  }
}
