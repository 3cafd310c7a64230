// Containment of MCP servers started as a command (STDIO). A server an owner registered runs code
// this product did not build; under bubblewrap it gets:
//  - no network at all (--unshare-all): whatever it needs from the net it asks through its tools'
//    answers, and Atelier's own calls go through the egress gate;
//  - a filesystem of read-only system directories, its own installation (the command's prefix),
//    the directories of the paths it was given and their nearest node_modules, and a private,
//    empty scratch directory as HOME and working directory — not the data directory, not the
//    project, not another tool's credentials, no /etc beyond what programs need to start;
//  - its own PID, IPC and UTS namespaces, a new session, and it dies with the worker;
//  - an address-space and a CPU-time limit (prlimit); each call is also bounded by the bus's
//    call timeout.
// `bwrapCommand` builds the exact command line (a pure function, tested as such); `resolveSandbox`
// decides at start-up whether bwrap is used: ATELIER_MCP_SANDBOX=bwrap|off, unset: bwrap when it is
// on PATH and works here, else off with a warning (the registry and /health say "not isolated").
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { Config } from '../../config.ts';
import type { Logger } from '../../log.ts';

export type SandboxMode = 'bwrap' | 'off';

export type McpSandbox = {
  mode: SandboxMode;
  /** Why it is off, when it is (shown by the registry and /health). */
  reason?: string;
  bwrap?: string;
  prlimit?: string | null;
  memoryMb: number;
  cpuSeconds: number;
};

/** System directories every sandboxed server sees, read-only (absent ones are skipped). */
export const SYSTEM_READ_ONLY = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'] as const;
/** What of /etc programs need to start (no passwords, no credentials). */
export const ETC_READ_ONLY = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime', '/etc/ssl', '/etc/ca-certificates', '/etc/nsswitch.conf'] as const;

export type SandboxInput = {
  bwrap: string;
  prlimit: string | null;
  /** The command as resolved (absolute). */
  command: string;
  args: readonly string[];
  /** The server's private scratch directory (HOME and cwd), created empty for this process. */
  scratch: string;
  /** Its installation and the paths it was given (sandboxPaths). */
  readOnly: readonly string[];
  memoryMb: number;
  cpuSeconds: number;
};

/** The exact command line that runs a STDIO server under bubblewrap (and prlimit when present). */
export function bwrapCommand(i: SandboxInput): { command: string; args: string[] } {
  const bw: string[] = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    ...SYSTEM_READ_ONLY.flatMap((p) => ['--ro-bind-try', p, p]),
    ...ETC_READ_ONLY.flatMap((p) => ['--ro-bind-try', p, p]),
    '--proc', '/proc',
    '--dev', '/dev',
    '--tmpfs', '/tmp',
    // After /tmp: a path under /tmp stays visible.
    ...[...new Set(i.readOnly)].sort().flatMap((p) => ['--ro-bind', p, p]),
    '--bind', i.scratch, i.scratch,
    '--chdir', i.scratch,
    '--setenv', 'HOME', i.scratch,
    '--setenv', 'TMPDIR', '/tmp',
    '--',
    i.command,
    ...i.args,
  ];
  if (!i.prlimit) return { command: i.bwrap, args: bw };
  return {
    command: i.prlimit,
    args: [`--as=${i.memoryMb * 1024 * 1024}`, `--cpu=${i.cpuSeconds}`, '--', i.bwrap, ...bw],
  };
}

/** An executable on PATH (or the absolute path itself), or null. */
export function which(name: string, path = process.env.PATH ?? ''): string | null {
  const candidates = isAbsolute(name) ? [name] : name.includes('/') ? [] : path.split(delimiter).filter(Boolean).map((d) => join(d, name));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      if (statSync(c).isFile()) return c;
    } catch {
      // not here
    }
  }
  return null;
}

const SYSTEM_PREFIXES = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/', '/opt/'];

/**
 * What a server needs to see besides the system: the installation of its command (the directory
 * above the command's real `bin/`), and for every argument that is an existing absolute path its
 * directory and the nearest node_modules above it (a script's dependencies).
 */
export function sandboxPaths(command: string, args: readonly string[]): string[] {
  const out = new Set<string>();
  const real = safeRealpath(command);
  if (real && !SYSTEM_PREFIXES.some((p) => real.startsWith(p))) {
    const bin = dirname(real);
    out.add(bin.endsWith('/bin') ? dirname(bin) : bin);
  }
  for (const a of args) {
    if (!isAbsolute(a)) continue;
    const p = safeRealpath(a);
    if (!p) continue;
    const dir = isDirectory(p) ? p : dirname(p);
    out.add(dir);
    for (let d = dir; d !== '/'; d = dirname(d)) {
      if (d.endsWith('/node_modules')) {
        out.add(d);
        break;
      }
      const nm = join(d, 'node_modules');
      if (existsSync(nm)) {
        out.add(nm);
        break;
      }
    }
  }
  // A path inside another is bound once, by the outer one.
  const sorted = [...out].sort();
  return sorted.filter((p) => !sorted.some((q) => q !== p && p.startsWith(`${q}/`)));
}

function safeRealpath(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Whether bwrap runs here (user namespaces may be unavailable in a container). */
function bwrapWorks(bwrap: string): boolean {
  const r = spawnSync(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'], { timeout: 5000, stdio: 'ignore' });
  return r.status === 0;
}

/** Decided once per process, at start-up. */
export function resolveSandbox(config: Pick<Config, 'mcp'>, log: Logger): McpSandbox {
  const s = config.mcp?.sandbox;
  const limits = { memoryMb: s?.memoryMb ?? 1024, cpuSeconds: s?.cpuSeconds ?? 600 };
  if (s?.mode === 'off') return { mode: 'off', reason: 'turned off by the operator (ATELIER_MCP_SANDBOX=off)', ...limits };
  // Nothing to contain when no command may be registered.
  const wanted = s?.mode === 'bwrap';
  if (!wanted && !(config.mcp?.stdioCommands?.length ?? 0)) return { mode: 'off', reason: 'no MCP server commands are allowed on this installation', ...limits };
  const bwrap = which('bwrap');
  const works = bwrap ? bwrapWorks(bwrap) : false;
  if (bwrap && works) return { mode: 'bwrap', bwrap, prlimit: which('prlimit'), ...limits };
  const reason = bwrap ? 'bubblewrap cannot create namespaces on this host' : 'bubblewrap (bwrap) is not installed';
  if (wanted) throw new Error(`Invalid configuration:\n  ATELIER_MCP_SANDBOX: bwrap was asked for, but ${reason}`);
  log.warn(`MCP servers started as a command run NOT isolated: ${reason}. Install bubblewrap, or set ATELIER_MCP_SANDBOX=off to acknowledge.`);
  return { mode: 'off', reason, ...limits };
}

/** A server process's command line under the sandbox, and its scratch directory (removed with `cleanup`). */
export function containedCommand(sandbox: McpSandbox, command: string, args: readonly string[]): { command: string; args: string[]; cleanup: () => void } {
  if (sandbox.mode !== 'bwrap' || !sandbox.bwrap) return { command, args: [...args], cleanup: () => {} };
  const resolved = which(command) ?? resolve(command);
  const scratch = mkdtempSync(join(tmpdir(), 'atelier-mcp-'));
  const line = bwrapCommand({
    bwrap: sandbox.bwrap,
    prlimit: sandbox.prlimit ?? null,
    command: resolved,
    args,
    scratch,
    readOnly: sandboxPaths(resolved, args),
    memoryMb: sandbox.memoryMb,
    cpuSeconds: sandbox.cpuSeconds,
  });
  return { ...line, cleanup: () => rmSync(scratch, { recursive: true, force: true }) };
}
