// The offline model's creative flows: explicit rules, no reasoning, no randomness. With no model
// configured a new user can still explore the whole product: the offline model plans a checklist
// for a poster series, a single image, a video (storyboard, confirmation, shots), a storyboard, a
// 3D model or a sound; calls the generation tools; stops at checkpoints with cards; follows a
// change of direction by re-opening the steps it touches; and delivers. Every text it writes says
// it is the offline model. It reads only what the runtime gives every model: the task brief, the
// conversation and the "[task state]" block (runtime/checklist.ts renderChecklist).
import type { BaseMessage } from '@langchain/core/messages';
import { messageText } from './types.ts';

export type FlowCall = { name: string; args: Record<string, unknown> };
export type FlowReply = { content: string; calls: FlowCall[] };

const TAG = '[offline model]';
const GENERATION = new Set(['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D']);
const TOOL_FOR: Record<string, string> = { IMAGE: 'generate_image', VIDEO: 'generate_video', AUDIO: 'generate_audio', MODEL_3D: 'generate_3d_model' };

type Item = { n: number; status: string; title: string; id: string; kind: string; count: number; needsUser: boolean; ordered: number; results: string[] };

const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, ein: 1, eine: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, deux: 2, trois: 3, quatre: 4 };

/** Parses the checklist lines of the "[task state]" block. */
export function parseChecklist(text: string): Item[] | null {
  if (!text.includes('[checklist v')) return null;
  const items: Item[] = [];
  const re = /^(\d+)\. \[(\w+)\] (.*?) \(id ([^,]+), ([A-Z_0-9]+)(?: ×(\d+))?(, needs the user)?(?:, ordered (\d+))?\)(?: results: ([^—\n]*))?/gm;
  for (const m of text.matchAll(re)) {
    items.push({
      n: Number(m[1]),
      status: m[2]!,
      title: m[3]!,
      id: m[4]!,
      kind: m[5]!,
      count: Number(m[6] ?? 1),
      needsUser: !!m[7],
      ordered: Number(m[8] ?? 0),
      results: (m[9] ?? '').split(',').map((r) => r.trim()).filter(Boolean),
    });
  }
  return items;
}

type Plan = { kind: string; items: { title: string; kind: string; count?: number }[]; subject: string };

/** What the user asked for, by explicit rules over their words (en/de/fr, some zh). */
export function classify(request: string): Plan | null {
  const t = request.toLowerCase();
  const subject = request.replace(/\s+/g, ' ').trim().slice(0, 160);
  const countMatch = t.match(/\b(\d{1,2}|one|two|three|four|five|six|zwei|drei|vier|fünf|sechs|deux|trois|quatre)\b[^.]*?\b(posters?|plakate?n?|affiches?)/);
  const series = /poster series|plakatserie|series of posters|serie von plakaten|海报/.test(t);
  if (countMatch || series) {
    const n = Math.min(6, Math.max(2, countMatch ? Number(countMatch[1]) || NUMBERS[countMatch[1]!] || 3 : 3));
    return {
      kind: 'poster-series',
      subject,
      items: [
        { title: 'Look candidates', kind: 'IMAGE', count: 3 },
        { title: 'Pick a direction', kind: 'CHECKPOINT' },
        ...Array.from({ length: n }, (_, i) => ({ title: `Poster ${i + 1}`, kind: 'IMAGE' })),
      ],
    };
  }
  const fromImage = /(image|picture|photo|bild|foto).{0,60}\b(into|to|zu|in) (a |an |ein |einen |einem )?(\w+ )?(video|clip|animation)/.test(t);
  if (fromImage) {
    return { kind: 'image-to-video', subject, items: [{ title: 'Reference image', kind: 'IMAGE' }, { title: 'Video from the image', kind: 'VIDEO' }] };
  }
  if (/\b(video|clip|film|trailer|spot|vidéo)\b|视频/.test(t)) {
    return {
      kind: 'video',
      subject,
      items: [
        { title: 'Storyboard', kind: 'DOCUMENT' },
        { title: 'Confirm the storyboard', kind: 'CHECKPOINT' },
        { title: 'Shot 1', kind: 'VIDEO' },
        { title: 'Shot 2', kind: 'VIDEO' },
        { title: 'Shot 3', kind: 'VIDEO' },
      ],
    };
  }
  if (/storyboard/.test(t)) {
    return { kind: 'storyboard', subject, items: [{ title: 'Storyboard', kind: 'DOCUMENT' }, { title: 'Confirm the storyboard', kind: 'CHECKPOINT' }] };
  }
  if (/\b3d\b|3-d|glb|gltf/.test(t)) return { kind: '3d', subject, items: [{ title: '3D model', kind: 'MODEL_3D' }] };
  if (/\b(jingle|sound|audio|music|melod|klang|musik)/.test(t)) return { kind: 'audio', subject, items: [{ title: 'Audio clip', kind: 'AUDIO' }] };
  if (/\b(image|picture|illustration|logo|poster|photo|drawing|bild|plakat|zeichnung|foto|affiche|dessin)\b|图/.test(t)) {
    return { kind: 'image', subject, items: [{ title: 'Image', kind: 'IMAGE' }] };
  }
  return null;
}

const isUserText = (s: string) => /^\[(message|revise|add context) from the user\]/.test(s);
const CHANGE = /\b(instead|rather|change|make it|actually|switch to|stattdessen|doch lieber|ändere|lieber|plutôt)\b/i;

function storyboard(subject: string, direction: string | null): string {
  const shots = [
    ['Establishing shot', 'wide, slow push-in; sets the place and the mood', '4 s'],
    ['The subject', 'medium shot; the main action', '4 s'],
    ['Closing image', 'close-up, hold; the line or logo', '3 s'],
  ];
  return [
    `# Storyboard — ${subject}`,
    direction ? `Direction: ${direction}` : '',
    ...shots.map(([h, what, d], i) => `## Shot ${i + 1}: ${h}\n${what} (${d})`),
    `(${TAG} written from a fixed template)`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The next step of a flow, or null when the rules have nothing to say (the caller falls back to
 * its plain offline answer).
 */
export function offlineFlowReply(messages: readonly BaseMessage[], toolNames: readonly string[]): FlowReply | null {
  if (!toolNames.includes('plan_checklist')) return null;
  const texts = messages.map((m) => ({ type: m.type, text: messageText(m) }));
  const brief = texts.find((m) => m.type === 'human' && m.text.startsWith('Task:'))?.text ?? '';
  const stateText = [...texts].reverse().find((m) => m.type === 'human' && m.text.startsWith('[task state]'))?.text ?? '';
  const items = parseChecklist(stateText);
  const lastAi = texts.map((m) => m.type).lastIndexOf('ai');
  const since = texts.slice(lastAi + 1);
  const userWords = texts.filter((m) => m.type === 'human' && isUserText(m.text)).map((m) => m.text.replace(/^\[[^\]]+\]\s*/, ''));
  const freshUser = since.filter((m) => m.type === 'human' && isUserText(m.text)).map((m) => m.text);
  const toolResults = since.filter((m) => m.type === 'tool').map((m) => safeJson(m.text));
  const subject = (brief.match(/^Task: (.*)$/m)?.[1] ?? '').trim();
  const goal = (brief.match(/^Goal: (.*)$/m)?.[1] ?? '').trim();
  const revisions = texts.filter((m) => m.type === 'human' && (/^\[revise from the user\]/.test(m.text) || (isUserText(m.text) && CHANGE.test(m.text))));
  const direction = revisions.length ? revisions.at(-1)!.text.replace(/^\[[^\]]+\]\s*/, '') : null;

  // 1. No plan yet: plan one from the request, if the rules recognise it.
  if (!items || items.length === 0) {
    if (toolResults.some((r) => r?.status === 'FAILED')) return null; // the plan was refused: answer plainly
    const plan = classify([subject, goal, ...userWords].join(' '));
    if (!plan) return null;
    return {
      content: `${TAG} Planning a ${plan.kind.replace('-', ' ')} from fixed rules.`,
      calls: [{ name: 'plan_checklist', args: { items: plan.items, reason: `offline plan (${plan.kind})` } }],
    };
  }

  // 2. A declined plan: ask what to change instead of guessing.
  const declined = toolResults.find((r) => r?.status === 'DONE' && (r.result as { status?: string })?.status === 'REJECTED');
  if (declined) {
    return { content: TAG, calls: [{ name: 'ask_user', args: { kind: 'ADJUST', question: `${TAG} The plan was declined. What should I change?` } }] };
  }

  // 3. A change of direction just arrived: re-open the generated steps it touches.
  if (freshUser.some((t) => /^\[revise from the user\]/.test(t) || CHANGE.test(t))) {
    const touched = items.filter((i) => GENERATION.has(i.kind) && (i.status === 'DONE' || i.status === 'IN_PROGRESS' || i.ordered > 0) && !/candidate/i.test(i.title));
    if (touched.length) {
      const ids = new Set(touched.map((i) => i.id));
      return {
        content: `${TAG} Change of direction: re-opening ${touched.map((i) => i.title).join(', ')}.`,
        calls: [
          {
            name: 'plan_checklist',
            args: {
              items: items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, count: i.count, ...(ids.has(i.id) ? { reopen: true } : {}) })),
              reason: `change of direction: ${direction ?? 'revised'}`.slice(0, 500),
            },
          },
        ],
      };
    }
  }

  const open = items.filter((i) => i.status === 'TODO' || i.status === 'IN_PROGRESS');
  if (open.length === 0) {
    const done = items.filter((i) => i.status === 'DONE');
    return {
      content: `${TAG} All steps are done.`,
      calls: [{ name: 'complete_task', args: { summary: `${TAG} Delivered: ${done.map((i) => `${i.title}${i.results.length ? ` (${i.results.join(', ')})` : ''}`).join('; ')}` } }],
    };
  }
  const first = open[0]!;
  const chosen = texts
    .filter((m) => m.type === 'tool')
    .map((m) => safeJson(m.text)?.result as { decision?: string; choice?: string | null; choiceLabel?: string | null } | undefined)
    .filter((r) => r?.decision === 'APPROVED' && r.choice)
    .map((r) => r!.choiceLabel ?? r!.choice)
    .at(-1);
  const style = chosen ? ` — in the look of ${chosen}` : '';
  const dir = direction ? ` — ${direction}` : '';

  if (GENERATION.has(first.kind)) {
    // This step and the open generation steps right after it (no checkpoint between) go together.
    const batch: Item[] = [];
    for (const i of open.slice(open.indexOf(first))) {
      // Same kind only: a step of another kind may build on this one (a video from the image).
      if (!GENERATION.has(i.kind) || i.needsUser || (batch.length && i.kind !== batch[0]!.kind)) break;
      if (batch.length && i.n !== batch.at(-1)!.n + 1) break;
      batch.push(i);
    }
    const calls: FlowCall[] = [];
    for (const i of batch) {
      // Results already ordered (still generating) count: never order the same result twice.
      const missing = Math.max(0, i.count - Math.max(i.results.length, i.ordered));
      for (let k = 0; k < missing; k++) {
        const variant = i.count > 1 ? ` (variant ${i.results.length + k + 1} of ${i.count})` : '';
        // Consistency: a later generation starts from the latest earlier result (e.g. the cat photo).
        const ref = [...items].reverse().find((p) => p.n < i.n && GENERATION.has(p.kind) && p.results.length)?.results[0];
        calls.push({
          name: TOOL_FOR[i.kind]!,
          args: { prompt: `${subject}: ${i.title}${variant}${style}${dir}`.slice(0, 4000), checklistItemId: i.id, ...(ref ? { referenceId: ref } : {}) },
        });
      }
    }
    if (calls.length) return { content: `${TAG} Generating ${batch.map((i) => i.title).join(', ')}.`, calls };
  }
  if (first.kind === 'CHECKPOINT') {
    const candidates = [...items].reverse().find((i) => i.n < first.n && GENERATION.has(i.kind) && i.results.length >= 2);
    if (candidates) {
      return {
        content: TAG,
        calls: [
          {
            name: 'ask_user',
            args: {
              kind: 'CHOOSE',
              question: `${TAG} ${first.title}: which one should the rest follow?`,
              itemId: first.id,
              options: candidates.results.map((r, k) => ({ id: `c${k + 1}`, label: `Candidate ${k + 1}`, objectId: r.startsWith('object:') ? r.slice(7) : null })),
            },
          },
        ],
      };
    }
    return { content: TAG, calls: [{ name: 'ask_user', args: { kind: 'CONFIRM', question: `${TAG} ${first.title} — shall I go on?`, itemId: first.id } }] };
  }
  if (first.kind === 'DOCUMENT') {
    const text = storyboard(subject, direction);
    const write: FlowCall = toolNames.includes('create_document')
      ? { name: 'create_document', args: { name: `${first.title} — ${subject}`.slice(0, 200), markdown: text } }
      : { name: 'add_note', args: { text: text.slice(0, 2000) } };
    return {
      content: `${TAG} Writing the ${first.title.toLowerCase()} from a template.`,
      calls: [write, { name: 'update_checklist', args: { itemId: first.id, status: 'DONE', evidence: `${TAG} written from a template` } }],
    };
  }
  return { content: TAG, calls: [{ name: 'update_checklist', args: { itemId: first.id, status: 'DONE', evidence: `${TAG} nothing to generate for this step` } }] };
}

function safeJson(s: string): { status?: string; result?: unknown; error?: string } | null {
  try {
    return JSON.parse(s) as { status?: string; result?: unknown };
  } catch {
    return null;
  }
}
