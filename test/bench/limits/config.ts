// bench:limits' settings, shared by its parts (./documents.ts, ./clients.ts, ./measure.ts,
// ./checks.ts, ./report.ts).
import { loadConfig } from '../../../server/config.ts';

export const QUICK = process.argv.includes('--quick');
export const REPS = QUICK ? 3 : 7;
export const BODY_LIMIT = 1_000_000;
export const SIZES = [
  { label: '2 KB', bytes: 2_000, floorMs: 50 },
  { label: '100 KB', bytes: 100_000, floorMs: 500 },
  { label: '1 MB', bytes: BODY_LIMIT - 2_000, floorMs: 2_000 },
] as const;
export const HEALTH_FLOOR_MS = 100;

/** The server's token limit with its default settings: the parser stops past it. */
export const TOKEN_LIMIT = loadConfig({}).maxQueryTokens;

export type Who = 'no token' | 'forged token' | 'valid token';
/** The callers each document is sent by, in the order of the report's cells. */
export const CALLERS: readonly Who[] = ['no token', 'forged token', 'valid token'];
