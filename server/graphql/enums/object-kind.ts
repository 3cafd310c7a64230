import { OBJECT_KINDS } from '../../domain/object-content.ts';
import { builder } from '../builder.ts';

const described: Record<(typeof OBJECT_KINDS)[number], string> = {
  IMAGE: 'A still image; content { file, provenance }.',
  VIDEO: 'A video clip; content { file, provenance }.',
  AUDIO: 'A sound clip; content { file, provenance }.',
  MODEL_3D: 'A 3D model; content { file, provenance }.',
  DOCUMENT: 'A Markdown document; content { markdown }.',
  COLLECTION: 'An ordered list of other objects; content { items: [{ objectId, note }] } (global ids).',
  FLOW: 'A workflow graph; content { nodes, edges }.',
};

export const ObjectKindEnum = builder.enumType('ObjectKind', {
  description: 'What a workspace object is, which decides the shape of its content.',
  values: Object.fromEntries(OBJECT_KINDS.map((k) => [k, { description: described[k] }])) as Record<(typeof OBJECT_KINDS)[number], { description: string }>,
});
