// What each routing evaluation set promises to cover: cases in all, per outcome and per tag.

export type Coverage = {
  minCases: number;
  minPerOutcome: number;
  minPerTag: Record<string, number>;
  /** A deictic EXISTING_TASK and a deictic CLARIFY case are required (default: yes). */
  deictic?: boolean;
};

/** What the development set promises. */
export const COVERAGE: Coverage = {
  minCases: 90,
  minPerOutcome: 10,
  minPerTag: {
    de: 15,
    zh: 15,
    ja: 2,
    fr: 2,
    'multi-task': 60,
    'follow-up-days-later': 10,
    deictic: 8,
    'parallel-series': 10,
    'cross-language': 8,
    'near-duplicate': 4,
    'explicit-task': 3,
    'card-action': 3,
    'object-context': 4,
    archived: 3,
    'completed-task': 3,
  },
};

/** What the held-out set promises: smaller, but every outcome and six languages plus mixed messages. */
export const HELDOUT_COVERAGE: Coverage = {
  minCases: 60,
  minPerOutcome: 10,
  minPerTag: {
    en: 10,
    de: 10,
    fr: 6,
    es: 6,
    zh: 6,
    ja: 6,
    'mixed-language': 6,
    'multi-task': 40,
    'follow-up-days-later': 6,
    deictic: 6,
    'parallel-series': 6,
    'cross-language': 4,
    'near-duplicate': 3,
    'explicit-task': 3,
    'card-action': 3,
    'object-context': 3,
    archived: 3,
    'completed-task': 3,
  },
};

/**
 * What the second held-out set promises (routing that reads the work): the failure classes of
 * dates, typos, object and result names, finished tasks, casual signals, status questions, quick
 * one-offs, next editions, similar recent tasks, greetings and lasting facts, in six languages.
 */
export const HELDOUT2_COVERAGE: Coverage = {
  minCases: 30,
  minPerOutcome: 5,
  deictic: false,
  minPerTag: {
    en: 6,
    de: 6,
    fr: 6,
    es: 6,
    zh: 6,
    ja: 6,
    'mixed-language': 3,
    'date-reference': 5,
    typo: 3,
    'object-name': 3,
    'casual-signal': 10,
    'status-question': 6,
    'quick-one-off': 5,
    'next-edition': 5,
    'similar-recent': 3,
    greeting: 5,
    remember: 3,
    'finished-follow-up': 4,
    'card-action': 2,
  },
};
