import { builder } from '../builder.ts';

export const GenerationKindEnum = builder.enumType('GenerationKind', {
  description: 'What a generation job makes.',
  values: {
    IMAGE: { description: 'A still image.' },
    VIDEO: { description: 'A video clip.' },
    AUDIO: { description: 'A sound clip.' },
    MODEL_3D: { description: 'A 3D model.' },
  } as const,
});
