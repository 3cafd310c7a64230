// Which tools the model sees, pure. Core tools are always visible; domain tool sets
// (image/video/audio/3d generation, documents, flows, memory) follow the task's phase: the kinds of
// its open checklist steps and the words of its title and goal. The visible set is part of the
// request prefix (providers cache tool definitions with it), so it changes only at a segment
// boundary: the task's first step, a compaction (which changes the prefix anyway), or when the plan
// needs a domain the segment lacks (the model could not otherwise do the step it was given).
//
// Visibility is never authorisation: the registry runs any registered tool the model names, and
// the tool's own server-side checks (approvals, budgets, checklist rules, object permissions)
// decide. Hiding a tool saves context; it guards nothing.
import type { Checklist } from '../../domain/checklist.ts';
import type { ToolDef } from './types.ts';

const KIND_DOMAIN: Record<string, string> = {
  IMAGE: 'image',
  VIDEO: 'video',
  AUDIO: 'audio',
  MODEL_3D: '3d',
  '3D': '3d',
  DOCUMENT: 'documents',
  FLOW: 'flows',
};

const WORD_DOMAINS: [RegExp, string][] = [
  [/\b(image|images|picture|photo|poster|posters|illustration|logo|moodboard|bild|bilder|plakat)/i, 'image'],
  [/\b(video|clip|film|animation|trailer|reel)/i, 'video'],
  [/\b(audio|music|sound|voice|song|jingle|podcast|musik)/i, 'audio'],
  [/\b(3d|mesh|model of|sculpt)/i, '3d'],
  [/\b(document|storyboard|script|brief|article|text|copy|treatment|dokument)/i, 'documents'],
  [/\b(flow|workflow|pipeline)/i, 'flows'],
  [/\b(remember|memory|profile|forget)/i, 'memory'],
  [/\b(delegate|delegation|remote agent|other agent|a2a)/i, 'agents'],
  [/\b(remind|reminder|follow[- ]?up|check (back|again|later)|come back to|erinner|nachhak|wiedervorlage)/i, 'follow-ups'],
];

/** Pure: the domains the task's phase needs. Empty means "unknown": then every domain is shown. */
export function phaseDomains(task: { title: string; goal: string }, checklist: Checklist | null): string[] {
  const out = new Set<string>();
  for (const i of checklist?.items ?? []) {
    if (i.status === 'TODO' || i.status === 'IN_PROGRESS' || i.status === 'BLOCKED') {
      const d = KIND_DOMAIN[i.kind.toUpperCase()];
      if (d) out.add(d);
    }
  }
  const words = `${task.title} ${task.goal}`;
  for (const [re, d] of WORD_DOMAINS) if (re.test(words)) out.add(d);
  return [...out].sort();
}

/** Pure: the visible tool names for these domains, in registry order (stable). */
export function visibleTools(all: readonly ToolDef[], domains: readonly string[]): string[] {
  const known = new Set(all.flatMap(domainsOf));
  // A phase naming no domain the registry has tells us nothing: show everything.
  const useful = domains.filter((d) => known.has(d));
  return all.filter((t) => useful.length === 0 || domainsOf(t).some((d) => d === 'core' || useful.includes(d))).map((t) => t.name);
}

/** A tool's domains: `domains` when it has several (an MCP server's tools; empty = core), else its one `domain`. */
function domainsOf(t: ToolDef): readonly string[] {
  return t.domains ? (t.domains.length ? t.domains : ['core']) : [t.domain];
}

export type ToolSetDecision = { tools: string[]; boundary: boolean; reason: string };

/**
 * Pure: keep the segment's tool set unless this step is a boundary. `previous` is the set the last
 * request carried (null for the first step); `compacted` is true when a compaction applies from
 * this step on.
 */
export function chooseToolSet(args: { all: readonly ToolDef[]; previous: readonly string[] | null; compacted: boolean; domains: readonly string[] }): ToolSetDecision {
  const wanted = visibleTools(args.all, args.domains);
  const registered = new Set(args.all.map((t) => t.name));
  if (args.previous === null) return { tools: wanted, boundary: true, reason: 'first step' };
  if (args.compacted) return { tools: wanted, boundary: true, reason: 'compaction' };
  const prev = args.previous.filter((n) => registered.has(n));
  const missing = wanted.filter((n) => !prev.includes(n));
  if (missing.length) return { tools: wanted, boundary: true, reason: `the plan needs ${missing.join(', ')}` };
  return { tools: prev, boundary: false, reason: 'same segment' };
}
