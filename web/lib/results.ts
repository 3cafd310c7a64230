// A task's results as a person reads them: each named by what it is ("Poster 2", "Candidate B",
// "Shot 3": the checklist step's title, numbered within a step that makes several, or the label the
// pick card gave it), grouped by checklist step, the picked one marked.

export type ResultJob = { id: string; kind: string; status: string; createdAt: string; prompt: string; asset?: { id: string } | null; files: { name: string; mime: string }[] };
export type ResultStep = { id: string; title: string; kind: string; count: number; status: string; artifacts?: readonly string[] | null };
export type ResultOption = { label: string; objectId?: string | null };

/** The database id inside a global id ("Type:uuid", base64); a raw id (as event payloads may carry) as it is. */
export const rawId = (gid: string) => {
  try {
    const s = atob(gid);
    return s.includes(':') ? s.slice(s.indexOf(':') + 1) : gid;
  } catch {
    return gid;
  }
};

export const fileUrl = (name: string) => `/files/${encodeURIComponent(name)}`;

/** The job a result ref (`job:<id>`, `object:<id>`, a bare id or file name) names. */
export function jobForRef<J extends ResultJob>(ref: string, jobs: readonly J[]): J | undefined {
  const bare = ref.replace(/^(job|object):/, '');
  const raw = rawId(bare);
  return jobs.find(
    (j) => j.id === bare || rawId(j.id) === raw || (j.asset && (j.asset.id === bare || rawId(j.asset.id) === raw)) || j.files.some((f) => f.name === bare || f.name.startsWith(`${raw}.`)),
  );
}

export type ResultGroup<J> = { title: string; stepId: string | null; items: { job: J; label: string }[] };

export function groupResults<J extends ResultJob>(
  jobs: readonly J[],
  steps: readonly ResultStep[] | null,
  options: readonly ResultOption[],
): { groups: ResultGroup<J>[]; labels: Map<string, string>; chosen: Set<string> } {
  const sorted = [...jobs].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const labels = new Map<string, string>();
  const chosen = new Set<string>();
  const placed = new Set<string>();
  const groups: ResultGroup<J>[] = [];
  const optionLabel = (j: J) => (j.asset ? options.find((o) => o.objectId && rawId(o.objectId) === rawId(j.asset!.id))?.label : undefined);
  for (const step of steps ?? []) {
    const linked = (step.artifacts ?? []).map((a) => jobForRef(a, sorted)).filter((j): j is J => !!j);
    if (step.kind === 'CHECKPOINT') {
      // A pick's result is the candidate chosen: marked where it is shown, not shown twice.
      for (const j of linked) chosen.add(j.id);
      continue;
    }
    const mine = linked.filter((j) => !placed.has(j.id));
    // Still generating for this step: the jobs of its kind that are not linked anywhere yet.
    const running = step.status !== 'DONE' ? sorted.filter((j) => !placed.has(j.id) && !mine.includes(j) && j.status !== 'SUCCEEDED' && j.status !== 'FAILED' && j.status !== 'CANCELLED' && j.kind === step.kind) : [];
    const all = [...mine, ...running];
    if (!all.length) continue;
    const several = step.count > 1 || all.length > 1;
    const items = all.map((job, k) => {
      const label = optionLabel(job) ?? (several ? `${step.title} ${k + 1}` : step.title);
      placed.add(job.id);
      labels.set(job.id, label);
      return { job, label };
    });
    groups.push({ title: step.title, stepId: step.id, items });
  }
  const rest = sorted.filter((j) => !placed.has(j.id));
  if (rest.length) {
    groups.push({
      // Candidates a person set aside with "None of these" keep their names; other results are numbered.
      title: rest.every((j) => optionLabel(j)) ? 'Earlier candidates' : groups.length ? 'Other results' : 'Results',
      stepId: null,
      items: rest.map((job, k) => {
        const label = optionLabel(job) ?? `Result ${k + 1}`;
        labels.set(job.id, label);
        return { job, label };
      }),
    });
  }
  return { groups, labels, chosen };
}

export type TextPart = { text: string; ref?: string };

/**
 * A delivery or summary split into text and named results: `[Poster 1](object:<id>)` is a link
 * named "Poster 1"; a bare `job:<id>` / `object:<id>` is named by `name` (its label).
 */
export function linkParts(text: string, name: (ref: string) => string | undefined): TextPart[] {
  const parts: TextPart[] = [];
  // A result is named by a global id (base64 "<Type>:<uuid>", as the API gives it) or, in event
  // payloads, by its raw uuid.
  const re = /\[([^\]]{1,200})\]\(((?:job|object):(?:[0-9a-f-]{36}|[A-Za-z0-9+/]{20,}={0,2}))\)|\b((?:job|object):(?:[0-9a-f-]{36}|[A-Za-z0-9+/]{20,}={0,2}))(?![A-Za-z0-9+/=])/g;
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index! > at) parts.push({ text: text.slice(at, m.index) });
    const ref = (m[2] ?? m[3])!;
    parts.push({ text: m[1] ?? name(ref) ?? 'a result', ref });
    at = m.index! + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The same as plain text (links become their names). */
export const plainText = (text: string, name: (ref: string) => string | undefined = () => undefined) =>
  linkParts(text, name)
    .map((p) => p.text)
    .join('');
