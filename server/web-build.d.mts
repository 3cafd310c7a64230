export function webBuildIsStale(root: string): boolean;
export function buildWeb(root: string, stdio?: 'inherit' | 'ignore' | 'pipe'): boolean;
