import { ITEM_STATUSES } from '../../domain/checklist.ts';
import { builder } from '../builder.ts';

const described: Record<(typeof ITEM_STATUSES)[number], string> = {
  TODO: 'Not started.',
  IN_PROGRESS: 'Being worked on (results ordered, or the step is under way).',
  DONE: 'Finished; evidence says why it counts as done.',
  SKIPPED: 'Left out (dropped from the plan, or not needed); evidence says why.',
  BLOCKED: 'Cannot go on without something; evidence says what.',
  STALE: 'Its results were made from an input that has changed since; a card asks the person whether to re-make them (evidence names the input). Neither open nor finished: nothing downstream runs on it meanwhile.',
};

export const ChecklistItemStatusEnum = builder.enumType('ChecklistItemStatus', {
  description: 'Where a step of the execution checklist is.',
  values: Object.fromEntries(ITEM_STATUSES.map((s) => [s, { description: described[s] }])) as Record<(typeof ITEM_STATUSES)[number], { description: string }>,
});
