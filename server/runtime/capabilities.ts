// What the platform can actually do, so a plan is checked against reality before any money is
// spent: the generation kinds the configured provider offers, their inputs, limits and
// prices, plus the non-paid step kinds. Guides are short, on-demand know-how loaded into the
// worker's context only when the task is about their subject.
import type { GenerationKind, GenerationProvider } from '../generation/types.ts';

export type Capability = {
  kind: string;
  description: string;
  /** Inputs the capability accepts besides a prompt. */
  inputs: string[];
  limits: string;
  priceCents: number;
  tool: string | null;
};

const GENERATION: Record<GenerationKind, Omit<Capability, 'priceCents'>> = {
  IMAGE: { kind: 'IMAGE', description: 'a still image (poster, illustration, photo-like)', inputs: ['prompt', 'reference image (object id)'], limits: 'one image per call, up to 2048 px', tool: 'generate_image' },
  VIDEO: { kind: 'VIDEO', description: 'a short video clip (one shot)', inputs: ['prompt', 'start image (object id)'], limits: 'one shot of up to 10 s per call; no editing or montage of several clips', tool: 'generate_video' },
  AUDIO: { kind: 'AUDIO', description: 'a short audio clip (music bed, sound effect, voice)', inputs: ['prompt'], limits: 'up to 30 s per call', tool: 'generate_audio' },
  MODEL_3D: { kind: 'MODEL_3D', description: 'a 3D model (glTF)', inputs: ['prompt', 'reference image (object id)'], limits: 'one object per call, no rigging or animation', tool: 'generate_3d_model' },
};

const FREE: Capability[] = [
  { kind: 'DOCUMENT', description: 'a written document (brief, storyboard, script) kept in the workspace', inputs: ['text'], limits: 'Markdown', priceCents: 0, tool: null },
  { kind: 'CHECKPOINT', description: 'a decision by the user (confirm, choose among candidates, adjust)', inputs: ['question', 'options'], limits: 'asked with ask_user', priceCents: 0, tool: 'ask_user' },
  { kind: 'OTHER', description: 'planning or bookkeeping that needs no generation', inputs: [], limits: '', priceCents: 0, tool: null },
];

export type Capabilities = {
  list: Capability[];
  get(kind: string): Capability | undefined;
  price(kind: string): number;
  /** Kinds a plan asks for that the platform cannot do (unknown kinds included). */
  missing(kinds: readonly string[]): string[];
  render(): string;
};

export function capabilitiesFrom(list: Capability[]): Capabilities {
  const byKind = new Map(list.map((c) => [c.kind, c]));
  return {
    list,
    get: (k) => byKind.get(k.toUpperCase()),
    price: (k) => byKind.get(k.toUpperCase())?.priceCents ?? 0,
    missing: (kinds) => [...new Set(kinds.map((k) => k.toUpperCase()).filter((k) => !byKind.has(k)))],
    render: () =>
      '[capabilities] Plan only with these step kinds:\n' +
      list.map((c) => `- ${c.kind}: ${c.description}${c.limits ? `; ${c.limits}` : ''}${c.priceCents ? `; ${c.priceCents} cents each` : ''}${c.tool ? ` (${c.tool})` : ''}`).join('\n'),
  };
}

/** The registry for a provider: each generation kind it offers, priced by its own quote. */
export async function loadCapabilities(provider: GenerationProvider & { kinds?: readonly GenerationKind[] }): Promise<Capabilities> {
  const kinds = provider.kinds ?? (Object.keys(GENERATION) as GenerationKind[]);
  const gen: Capability[] = [];
  for (const kind of kinds) {
    const priceCents = await provider.quote({ kind, prompt: 'price probe', params: {}, idempotencyKey: `quote-probe:${kind}` });
    gen.push({ ...GENERATION[kind], priceCents });
  }
  return capabilitiesFrom([...gen, ...FREE]);
}

export type Guide = { id: string; title: string; keywords: RegExp; text: string };

export const GUIDES: Guide[] = [
  {
    id: 'poster-series',
    title: 'Poster series',
    keywords: /\bposters?\b|plakat|series|serie|campaign|kampagne/i,
    text: [
      'A series shares one look: settle the look first (a few candidates, the user picks one), then make every poster from that pick.',
      'Plan: candidates (IMAGE ×3) → CHECKPOINT "pick a direction" → one IMAGE step per poster → deliver.',
      'Put the chosen candidate in every later prompt as the style reference; never re-roll the look per poster.',
    ].join(' '),
  },
  {
    id: 'storyboard',
    title: 'Storyboard',
    keywords: /storyboard|video|film|clip|shot|szene|scene|trailer/i,
    text: [
      'Write the storyboard as a DOCUMENT (one heading per shot: framing, action, duration), confirm it with the user (CHECKPOINT),',
      'then generate one VIDEO step per shot. A change of direction re-opens the shots it touches, not the whole plan.',
      'Montage of several clips is not available: deliver the shots in order.',
    ].join(' '),
  },
  {
    id: 'character-consistency',
    title: 'Character consistency',
    keywords: /character|figur|mascot|maskottchen|same (cat|dog|person)|consistent|turn .* into a video/i,
    text: [
      'Keep one reference image of the character and pass it to every later generation (reference image / start image);',
      'describe the character with the same words each time. Generate the reference first, confirm it, then the scenes.',
    ].join(' '),
  },
];

/** Guides relevant to the task's words, in a fixed order (stable context). */
export function relevantGuides(text: string): Guide[] {
  return GUIDES.filter((g) => g.keywords.test(text));
}
