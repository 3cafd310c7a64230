// One id format. Every id the API hands out is a global id — base64("<Type>:<key>"), the encoding
// Pothos' relay plugin uses — and every id it takes is one: decoded here and checked against the
// expected type, so a raw key, garbage or an id of another kind is BAD_USER_INPUT naming the
// argument (never a driver error from a malformed uuid, never INTERNAL).
import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import type { GraphQLSchema } from 'graphql';
import { isObjectType } from 'graphql';
import { badInput } from '../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The global id of a row of `type` (its key as stored). */
export const globalId = (type: string, key: string): string => encodeGlobalID(type, key);

/**
 * base64("<Type>:<uuid>") → its parts. Every node of this API is keyed by a UUID, so an id that does
 * not decode to one cannot name an object, and must never reach a uuid column.
 */
export function decodeNodeId(globalId: string, argument: string): { typename: string; id: string } {
  const decoded = decodeLenient(globalId);
  if (!decoded || !UUID.test(decoded.id)) throw badInput(`${argument} is not a valid id`, { argument });
  return { typename: decoded.typename, id: decoded.id.toLowerCase() };
}

/** Its parts, or null when the text is no global id at all (the relay plugin's decoder throws). */
export function decodeLenient(globalId: string): { typename: string; id: string } | null {
  try {
    return decodeGlobalID(globalId);
  } catch {
    return null;
  }
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

/**
 * node(id)/nodes(ids): the relay plugin decodes the ids before the resolver runs, with one decoder
 * for both fields — which cannot know the argument's name. So that decoder lets anything through
 * (`lenientNodeId`) and the resolvers refuse here, naming `id` or `ids`: a malformed id, a raw key,
 * a non-uuid key, or a type that is not a Node names nothing we could load.
 */
export function lenientNodeId(globalId: string): { typename: string; id: string } {
  const d = decodeLenient(globalId);
  if (!d) return { typename: '', id: globalId };
  return { typename: d.typename, id: UUID.test(d.id) ? d.id.toLowerCase() : d.id };
}

export function assertNodeId(schema: GraphQLSchema, id: { typename: string; id: string }, argument: string): void {
  if (!id.typename || !UUID.test(id.id)) throw badInput(`${argument} is not a valid id`, { argument });
  const type = schema.getType(id.typename);
  if (!isObjectType(type) || !type.getInterfaces().some((i) => i.name === 'Node')) {
    throw badInput(`${argument} is not the id of any kind of object`, { argument });
  }
}
