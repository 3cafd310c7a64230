import { builder } from '../builder.ts';

export const ActorKindEnum = builder.enumType('ActorKind', {
  description: 'Who did something: a person, the agent working on a task, or the system on its own behalf.',
  values: {
    USER: { description: 'A person (through a token or the web app).' },
    AGENT: { description: "The agent, during a task's turn." },
    SYSTEM: { description: 'Atelier itself: the runtime, the watchdog, a job callback, the router.' },
  } as const,
});
