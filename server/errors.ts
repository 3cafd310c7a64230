// The one application error. Its code becomes `extensions.code` in GraphQL; every other error is
// masked as INTERNAL so no stack trace, SQL or driver message ever reaches a client.

export const ErrorCode = {
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  /** An idempotency key already used for a different request. */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** An outbound call to a host the workspace does not allow, or to an internal address (extensions.host, port, rule). */
  EGRESS_DENIED: 'EGRESS_DENIED',
  /** An agent's run credential that is not ours, was tampered with, or is for another audience or workspace. */
  CREDENTIAL_INVALID: 'CREDENTIAL_INVALID',
  /** An agent's run credential past its expiry (at most 10 minutes after it was issued). */
  CREDENTIAL_EXPIRED: 'CREDENTIAL_EXPIRED',
  /** An agent's run credential whose run is over: the turn was taken over or ended, or the task stopped. */
  CREDENTIAL_REVOKED: 'CREDENTIAL_REVOKED',
  INTERNAL: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP status used when the error ends a request before execution (auth, limits). */
export const httpStatusOf: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  BAD_USER_INPUT: 400,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  IDEMPOTENCY_KEY_REUSED: 422,
  EGRESS_DENIED: 403,
  CREDENTIAL_INVALID: 401,
  CREDENTIAL_EXPIRED: 401,
  CREDENTIAL_REVOKED: 401,
  INTERNAL: 500,
};

/**
 * What exactly was refused, when a code alone does not tell a client how to recover: it goes to
 * `extensions.reason` beside `extensions.code`. Every reason the server emits is a row here — the
 * schema publishes this table as the ErrorReason enum, and AppError's details accept no other
 * reason, so a new one cannot reach a client undocumented.
 */
export const errorReasons = {
  STALE_BASE_VERSION: {
    codes: ['CONFLICT'],
    description: 'A whole-content update was based on an older version than the current one (extensions.currentVersion); re-read the object and apply the change again.',
  },
  FIND_NOT_UNIQUE: {
    codes: ['BAD_USER_INPUT', 'CONFLICT'],
    description: 'A document edit has a find that matched no place or several (extensions.failures); CONFLICT when the document also changed since the base version.',
  },
  NODE_CONFLICT: {
    codes: ['CONFLICT'],
    description: 'A flow edit touched nodes that changed or disappeared since its base version (extensions.conflicts); nothing was written.',
  },
  OBJECT_DELETED: {
    codes: ['CONFLICT'],
    description: 'The object was deleted: it can no longer be edited, and deleting it again is refused.',
  },
  APPROVAL_SUPERSEDED: {
    codes: ['CONFLICT'],
    description: 'The card was set aside by an instruction of the user that came first (a revision, added context or a message to the task; its note says which); the task asks again with a new card if it still needs to.',
  },
  TASK_BUSY: {
    codes: ['CONFLICT'],
    description: 'The message or instruction was sent with the REJECT input policy (its own, or the task\'s) while the task was busy (a turn queued or running, or a job still owed): nothing was delivered or stored. Send it again once the task waits or has finished, or with another policy.',
  },
  CARD_ALREADY_ANSWERED: {
    codes: ['CONFLICT'],
    description: 'The card was already answered with another option (extensions.choice); an answer is final. Answering again with the same option returns the recorded answer.',
  },
  NOT_A_FORGET_CARD: {
    codes: ['BAD_USER_INPUT'],
    description: 'Works can be cleaned only from the card of a forgetting (forgetMemory / forgetEvidence); this approval is another kind.',
  },
  NOT_YOUR_FORGET_CARD: {
    codes: ['FORBIDDEN'],
    description: 'Only the person who asked to forget chooses which works to clean.',
  },
  FORGET_NOT_APPROVED: {
    codes: ['CONFLICT'],
    description: 'The forgetting was not approved (extensions.status: still pending, or declined); works are cleaned only after it is.',
  },
  WORK_NOT_LISTED: {
    codes: ['BAD_USER_INPUT'],
    description: 'An object id is not among the works the card lists (extensions.objectIds); nothing was changed.',
  },
  WORKS_ALREADY_CHOSEN: {
    codes: ['CONFLICT'],
    description: 'The person already chose which works to clean on this card (extensions.chosen); the choice is final, and the card no longer holds what the value was.',
  },
  FORK_STEP_OUT_OF_RANGE: {
    codes: ['BAD_USER_INPUT'],
    description: "The step to fork from is not a step of the task's checklist (extensions.steps: how many it has; none before it planned); steps count from 1.",
  },
  FORK_STEP_NOT_REACHED: {
    codes: ['CONFLICT'],
    description: 'A step before the one to fork from is not finished (extensions.openSteps); a fork keeps the results of every earlier step, so fork from the first unfinished step, or once it is finished.',
  },
  FORK_NOT_A_PICK: {
    codes: ['BAD_USER_INPUT'],
    description: 'A choice was given for a step that is not a pick among candidates (the task raised no pick card for it); leave choice out and say the change in edit.',
  },
  FORK_UNKNOWN_CHOICE: {
    codes: ['BAD_USER_INPUT'],
    description: "The choice is none of the pick's options (extensions.options lists their ids and labels); give an option's id or label.",
  },
  INVALID_CRON: {
    codes: ['BAD_USER_INPUT'],
    description: "A schedule's cron expression is not five valid fields (minute, hour, day of the month, month, day of the week) or never matches a real date; the message names the field at fault. Nothing was saved.",
  },
  UNKNOWN_TIME_ZONE: {
    codes: ['BAD_USER_INPUT'],
    description: 'A time zone that is not an IANA name this server knows, such as "Europe/Berlin" or "UTC". Nothing was saved.',
  },
  RUN_AT_NOT_AHEAD: {
    codes: ['BAD_USER_INPUT'],
    description: "A one-off schedule's runAt is not in the future, or is more than ten years ahead. Nothing was saved.",
  },
  FOLLOW_UP_NOT_PENDING: {
    codes: ['CONFLICT'],
    description: 'The follow-up already woke the task or was cancelled (extensions.status: FIRED or CANCELLED); only a pending one can be cancelled, and nothing was changed.',
  },
} as const satisfies Record<string, { codes: readonly ErrorCode[]; description: string }>;
export type ErrorReason = keyof typeof errorReasons;
/** The reasons by name, for details such as `{ reason: ErrorReason.STALE_BASE_VERSION }`. */
export const ErrorReason = Object.fromEntries(Object.keys(errorReasons).map((r) => [r, r])) as { readonly [R in ErrorReason]: R };

/** Safe, structured details for the client (never internals); a reason must come from the table above. */
export type ErrorDetails = { reason?: ErrorReason; [key: string]: unknown };

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Safe, structured details for the client (never internals). */
  readonly details: ErrorDetails | undefined;
  constructor(code: ErrorCode, message: string, details?: ErrorDetails) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', message);
export const conflict = (message: string, details?: ErrorDetails) =>
  new AppError('CONFLICT', message, details);
export const badInput = (message: string, details?: ErrorDetails) =>
  new AppError('BAD_USER_INPUT', message, details);

/** The REJECT input policy's refusal: the task is busy, and nothing was delivered or stored. */
export const taskBusy = (title: string) =>
  conflict(`“${title}” is busy right now (a step is running or a result is still being made), and this was sent with the REJECT policy, so nothing was delivered. Send it again when the task waits or has finished, or send it with QUEUE, INTERRUPT or ROLLBACK.`, {
    reason: ErrorReason.TASK_BUSY,
  });
