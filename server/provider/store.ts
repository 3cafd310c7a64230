// The provider service's durable state, in its data directory:
//   jobs.log       — JSON lines, append-only: a job as created, its cancellation, "final callback
//                    delivered". A submit or cancel is written and fsynced before it is answered,
//                    so an acknowledged job survives SIGKILL at any moment. A line torn by a crash
//                    mid-write was never acknowledged and is dropped on the next start.
//   lock           — the pid of the one process using the directory (two writers would each keep
//                    their own view of the log).
//   endpoint.json  — where that process listens, so other Atelier processes on this data directory
//                    can find it (server/provider/process.ts).
// On start the log is compacted (one record per job and fact), written to a temporary file and
// renamed over the old one.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { SimJob } from '../generation/simulation.ts';

export type StoredJob = { job: SimJob; finalDelivered: boolean };

type LogRecord = { op: 'job'; job: SimJob } | { op: 'cancel'; id: string; at: number } | { op: 'delivered'; id: string };

export class DataDirInUse extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`the provider data directory ${dir} is in use by process ${pid}`);
    this.name = 'DataDirInUse';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A pid reused by an unrelated process after a crash is no owner (checked where /proc exists).
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('provider');
  } catch {
    return true;
  }
}

/** Writes a file so that readers see the old content or the new one, never a mix; durable once returned. */
export function writeFileAtomic(path: string, text: string) {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  syncDir(path.slice(0, path.lastIndexOf('/')) || '.');
}

function syncDir(dir: string) {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not every platform can fsync a directory; the rename itself is still atomic.
  }
}

/** Takes the directory's lock, or throws DataDirInUse while its owner lives. */
function lock(dir: string): string {
  const path = join(dir, 'lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      fsyncSync(fd);
      closeSync(fd);
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number(readFileSync(path, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) throw new DataDirInUse(dir, owner);
    // Left by a process that died (SIGKILL): take it over.
    try {
      unlinkSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  throw new Error(`could not lock the provider data directory ${dir}`);
}

export class JobStore {
  private fd: number | null;

  private constructor(
    readonly dir: string,
    private readonly lockPath: string,
    private readonly logPath: string,
  ) {
    this.fd = openSync(logPath, 'a', 0o600);
  }

  /** Locks the directory and loads its jobs (the log is compacted on the way). */
  static open(dir: string): { store: JobStore; jobs: StoredJob[] } {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const lockPath = lock(dir);
    try {
      // Temporary files of a process killed mid-write (their content was never acknowledged).
      for (const f of readdirSync(dir)) if (/^(jobs\.log|endpoint\.json)\..*\.tmp$/.test(f)) unlinkSync(join(dir, f));
      const logPath = join(dir, 'jobs.log');
      const jobs = existsSync(logPath) ? replay(readFileSync(logPath, 'utf8')) : [];
      writeFileAtomic(logPath, jobs.flatMap((s) => records(s)).map((r) => JSON.stringify(r) + '\n').join(''));
      return { store: new JobStore(dir, lockPath, logPath), jobs };
    } catch (e) {
      unlinkSync(lockPath);
      throw e;
    }
  }

  /** A new job: on disk (fsynced) when this returns. */
  created(job: SimJob) {
    this.append({ op: 'job', job: storable(job) }, true);
  }

  /** A cancellation: on disk (fsynced) when this returns. */
  cancelled(id: string, at: number) {
    this.append({ op: 'cancel', id, at }, true);
  }

  /** Best effort: at worst the final callback is delivered again after a crash (callbacks may repeat). */
  finalDelivered(id: string) {
    this.append({ op: 'delivered', id }, false);
  }

  /** Where this process listens, for other processes on the same data directory. */
  advertise(url: string) {
    writeFileAtomic(join(this.dir, 'endpoint.json'), JSON.stringify({ pid: process.pid, url }) + '\n');
  }

  close() {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
    for (const p of [join(this.dir, 'endpoint.json'), this.lockPath]) {
      try {
        unlinkSync(p);
      } catch {
        // already gone
      }
    }
  }

  private append(r: LogRecord, durable: boolean) {
    if (this.fd === null) throw new Error('the job store is closed');
    // One write per record, opened for append: records never interleave.
    writeSync(this.fd, JSON.stringify(r) + '\n');
    if (durable) fsyncSync(this.fd);
  }
}

/** The jobs a log describes. Lines that do not parse (a torn last line) are skipped. */
function replay(text: string): StoredJob[] {
  const byId = new Map<string, StoredJob>();
  const lines = text.split('\n');
  // Text after the last newline is a record whose write a crash interrupted: never acknowledged.
  lines.pop();
  for (const line of lines) {
    let r: LogRecord;
    try {
      r = JSON.parse(line) as LogRecord;
    } catch {
      continue;
    }
    if (r.op === 'job') byId.set(r.job.id, { job: r.job, finalDelivered: false });
    else if (r.op === 'cancel') {
      const s = byId.get(r.id);
      if (s) s.job.cancelledAt = r.at;
    } else if (r.op === 'delivered') {
      const s = byId.get(r.id);
      if (s) s.finalDelivered = true;
    }
  }
  return [...byId.values()];
}

function records(s: StoredJob): LogRecord[] {
  return [{ op: 'job', job: storable(s.job) }, ...(s.finalDelivered ? [{ op: 'delivered' as const, id: s.job.id }] : [])];
}

function storable(job: SimJob): SimJob {
  const { id, req, created, latency, fails, plan, cancelledAt, meta } = job;
  return { id, req, created, latency, fails, plan, ...(cancelledAt !== undefined ? { cancelledAt } : {}), ...(meta ? { meta } : {}) };
}
