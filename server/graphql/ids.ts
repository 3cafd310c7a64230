// Global ids in arguments: decoded and checked against the expected type; anything else is
// BAD_USER_INPUT (never a driver error from a malformed uuid).
import { decodeGlobalID } from '@pothos/plugin-relay';
import { badInput } from '../errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseGlobalId(globalId: string, typename: string, argument: string): string {
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(globalId);
  } catch {
    throw badInput(`${argument} is not a valid id`, { argument });
  }
  if (decoded.typename !== typename || !UUID.test(decoded.id)) {
    throw badInput(`${argument} must be the id of a ${typename}`, { argument });
  }
  return decoded.id.toLowerCase();
}
