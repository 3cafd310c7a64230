export const SERVER_ENTRIES: { main: string; provider: string; cli: string };
export function serverBuildIsStale(root: string): boolean;
export function buildServer(root: string, log?: Pick<Console, 'error'>): Promise<boolean>;
export function ensureServerBuild(root: string, log?: Pick<Console, 'error'>): Promise<boolean>;
export function serverEntryArgs(root: string, name: 'main' | 'provider' | 'cli'): string[];
