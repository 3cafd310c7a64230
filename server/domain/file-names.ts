// A generated file is written under the server's files directory and recorded — in its job's result,
// in the content of the media object it became — by its absolute path. That path is the server's own
// business: it names the machine's layout and data directory, and means nothing to anyone else.
// Outside the process a file is known by its name (the last path segment), which is also what
// GET /files/<name> takes. These are the pure rules that reduce a recorded path to that name.

/** The name a stored file is served by: the last segment of its path (POSIX or Windows separators). */
export function fileNameOf(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}

type Json = unknown;

const nameOfPath = (v: Json): Json => (typeof v === 'string' ? fileNameOf(v) : v);

/** `{ path, … }` with the path reduced to its name; anything else as it is. */
function fileWithName(v: Json): Json {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const path = (v as { path?: unknown }).path;
  if (typeof path !== 'string') return v;
  const name = fileNameOf(path);
  return name === path ? v : { ...(v as object), path: name };
}

/**
 * A JSON value as it may leave the server: every recorded file path in it reduced to the file's
 * name. The places a path is recorded are known, so only they are rewritten — `file.path` (media
 * content), `files[].path` (job results) and `moreFiles[]` (provenance of a job with several files),
 * at any depth (a tool's result embeds a version's content). Every other string stays as it is: a
 * document may well mention "/etc/hosts". Invariant: returns the very same value when nothing
 * changed, so unaffected content costs no copy.
 */
export function withFileNames<T>(value: T): T {
  return walk(value) as T;
}

function walk(v: Json): Json {
  if (Array.isArray(v)) {
    let out: Json[] | undefined;
    v.forEach((x, i) => {
      const y = walk(x);
      if (y !== x) (out ??= [...v])[i] = y;
    });
    return out ?? v;
  }
  if (!v || typeof v !== 'object') return v;
  let out: Record<string, Json> | undefined;
  for (const [k, x] of Object.entries(v as Record<string, Json>)) {
    let y = walk(x);
    if (k === 'file') y = fileWithName(y);
    else if (k === 'files' && Array.isArray(y)) y = mapSame(y, fileWithName);
    else if (k === 'moreFiles' && Array.isArray(y)) y = mapSame(y, nameOfPath);
    if (y !== x) (out ??= { ...(v as Record<string, Json>) })[k] = y;
  }
  return out ?? v;
}

/** `xs.map(f)`, or `xs` itself when `f` changed no element. */
function mapSame(xs: Json[], f: (x: Json) => Json): Json[] {
  const ys = xs.map(f);
  return ys.every((y, i) => y === xs[i]) ? xs : ys;
}
