import { builder } from '../builder.ts';

/**
 * The kinds a step can be: the platform's capabilities (runtime/capabilities.ts — the generation
 * kinds, DOCUMENT, CHECKPOINT, OTHER). A stored kind outside them reads as OTHER.
 */
export const CHECKLIST_ITEM_KINDS = ['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D', 'DOCUMENT', 'CHECKPOINT', 'OTHER'] as const;
export type ChecklistItemKind = (typeof CHECKLIST_ITEM_KINDS)[number];

/** A stored kind as the API shows it (the agent's free-form kinds read as OTHER). */
export const checklistItemKind = (kind: string): ChecklistItemKind =>
  (CHECKLIST_ITEM_KINDS as readonly string[]).includes(kind.toUpperCase()) ? (kind.toUpperCase() as ChecklistItemKind) : 'OTHER';

export const ChecklistItemKindEnum = builder.enumType('ChecklistItemKind', {
  description: 'What a step of the checklist produces. A provider that cannot make a kind refuses a plan with it (CONFLICT).',
  values: {
    IMAGE: { description: 'Images (generations).' },
    VIDEO: { description: 'Video clips (generations).' },
    AUDIO: { description: 'Sound (generations).' },
    MODEL_3D: { description: '3D models (generations).' },
    DOCUMENT: { description: 'A written document (brief, storyboard, script) kept in the workspace.' },
    CHECKPOINT: { description: 'A person decides (a pick, a confirmation): the step waits on an approval.' },
    OTHER: { description: 'Planning or bookkeeping that needs no generation.' },
  } as const,
});
