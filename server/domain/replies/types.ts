// What every language's message templates provide (./en.ts, ./de.ts, ./fr.ts, ./es.ts, ./zh.ts,
// ./ja.ts; ./texts.ts picks one). Every text a person reads from the main thread or from a task —
// replies, acknowledgements, card titles and prompts, the delivery summary, the offline model's
// words — comes from here, so a German task speaks German from its first card to its delivery.
import type { ReplyLanguage } from './languages.ts';

export type SteerSignal = 'PAUSE' | 'RESUME' | 'CANCEL';
export type GenerationKindName = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'MODEL_3D';

/** Where a task stands, as the thread describes it (built from persisted state: ./status.ts). */
export type TaskStateView =
  | { kind: 'paused'; reason: string | null }
  | { kind: 'decision'; title: string }
  | { kind: 'generating'; running: number }
  | { kind: 'waiting' }
  | { kind: 'working' }
  | { kind: 'queued' }
  | { kind: 'completed' }
  | { kind: 'failed'; reason: string | null }
  | { kind: 'cancelled' }
  | { kind: 'budget' };

/** What a remembered fact is about, for phrasing it (from its subject key: ./facts.ts). */
export type FactKind = 'brandColor' | 'brandFont' | 'brandTone' | 'brandLogo' | 'brandTagline' | 'companyName' | 'companyLocation' | 'signature' | 'residence' | 'name' | 'work' | 'prefer' | 'avoid' | 'habit' | 'other';
export type Fact = { kind: FactKind; subject: string; value: string };

/** Paid work a cancel would abandon. */
export type PaidWork = { runningJobs: number; heldCents: number; approvedCents: number };

/** Why a paid action waits for a person (domain/approval-policy.ts), with the amounts it names. */
export type ApprovalReasonView =
  | { code: 'AUTONOMY_MANUAL' }
  | { code: 'CREDENTIAL_CONFIRMS_EACH' }
  | { code: 'PLAN_BUDGET'; totalCents: number; budgetCents: number }
  | { code: 'PER_ACTION_LIMIT'; quoteCents: number; freeCents: number }
  | { code: 'DAILY_LIMIT'; totalCents: number; freeCents: number };

/** How a person's instruction reached a task whose card it set aside. */
export type InstructionKind = 'REVISE' | 'ADD_CONTEXT' | 'MESSAGE';

/** The offline model's checklist step titles (the plan it makes from fixed rules). */
export type OfflineStep =
  | { step: 'lookCandidates' }
  | { step: 'pickDirection' }
  | { step: 'poster'; n: number }
  | { step: 'image'; n: number | null }
  | { step: 'storyboard' }
  | { step: 'confirmStoryboard' }
  | { step: 'character' }
  | { step: 'setting' }
  | { step: 'finalCut' }
  | { step: 'shot'; n: number }
  | { step: 'referenceImage' }
  | { step: 'videoFromImage' }
  | { step: 'audioClip' }
  | { step: 'model3d' }
  | { step: 'brief' }
  | { step: 'text' };

/** What the offline model planned (offline/classify.ts, offline/rounds.ts), as its progress line names it. */
export type OfflinePlanKind = 'poster-series' | 'image-series' | 'image' | 'image-to-video' | 'audio' | '3d' | 'video' | 'storyboard' | 'document' | 'change' | 'resume';

/** A workspace object's kind, as a card names it. */
export type ObjectKindName = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'MODEL_3D' | 'DOCUMENT' | 'COLLECTION' | 'FLOW';
/** Where a remembered thing came from (a message, a note, an observation). */
export type SourceKindName = 'MESSAGE' | 'NOTE' | 'OBSERVATION';

/** The fixed templates of the documents the offline model writes (offline/documents.ts). */
export interface DocumentTexts {
  /** The start of the line a change of direction rewrites ("Direction: "). */
  directionPrefix: string;
  /** The direction before any change ("as briefed"). */
  asBriefed: string;
  storyboard: string;
  shot(n: number, heading: string): string;
  /** The storyboard's three shots: heading, what is seen. */
  shots: readonly [heading: string, what: string][];
  seconds(n: number): string;
  brief: string;
  /** The brief's sections: heading, what goes there. */
  briefSections: readonly [heading: string, what: string][];
  firstDraft(subject: string): string;
  /** The closing note that says a template wrote it (after the offline tag). */
  fromTemplate: string;
}

export interface Texts {
  lang: ReplyLanguage;
  money(cents: number): string;
  date(d: Date): string;
  q(s: string): string;

  // The main thread.
  greeting: string;
  thanks: string;
  help(offline: boolean): string;
  /** A question nothing stored answers: honest about why. */
  cannotAnswer(offline: boolean): string;
  nothingInProgress: string;
  workingOn(lines: string[]): string;

  // A task's state, as one sentence, and its details.
  status(title: string, s: TaskStateView): string;
  progress(done: number, total: number, next: string | null): string;
  cost(cents: number): string;

  // Acknowledgements of a message routed to a task.
  delivered(title: string, said: string): string;
  started(title: string): string;
  followUp(ended: string, title: string): string;

  // Long-term memory.
  remembered(facts: Fact[]): string;
  nothingToRemember: string;
  recalled(facts: (Fact & { since: Date })[]): string;
  recallUnknown: string;
  /** Episodes of earlier work answering a question: the day, the task (null: the thread), what was said, and its citations ("e:…, s:…"). */
  recalledEpisodes(episodes: (Fact & { day: Date; task: string | null; cites: string })[]): string;

  // Steering a task from the thread.
  steered(signal: SteerSignal, title: string, result: 'done' | 'already' | 'ended'): string;
  confirmCancel(title: string, paid: PaidWork): string;
  confirmYes(signal: SteerSignal): string;
  confirmNo: string;
  kept(title: string): string;
  whichTask(signal: SteerSignal): string;
  steerOption(signal: SteerSignal, title: string): string;
  nevermind: string;

  // The thread's clarification card.
  clarifyWhich: string;
  clarifyMore: string;
  continueOption(title: string): string;
  newTaskOption: string;

  // A task's cards and delivery.
  deliveredFallback: string;
  deliveredHeader(done: number, total: number): string;
  skipped(list: string): string;
  noReason: string;
  planTitle(steps: number, cents: number): string;
  /** The impact card when an input of finished steps changed (a person edited the character sheet). */
  impactTitle(input: string, results: number, cents: number): string;
  impactRemake(step: string, input: string, cents: number): string;
  impactKeeps(list: string): string;
  impactWaits(list: string): string;
  changedPlanTitle(steps: number, budgetCents: number, spentCents: number): string;
  planReasonNew: string;
  planReasonAgain: string;
  generateTitle(kind: GenerationKindName, cents: number, prompt: string): string;
  checkpointReason: string;
  /** A reason on a price card: why this paid action needs a confirmation. */
  approvalReason(r: ApprovalReasonView): string;
  /** The note of a card set aside by the person's instruction (`said`: their words, clipped). */
  supersededNote(by: InstructionKind, said: string): string;
  /** Why a paid action is refused outright: it would take the task past its budget cap. */
  budgetCapReason(quoteCents: number, totalCents: number, capCents: number): string;
  /** The card of a task paused at its budget cap: raise the cap from `fromCents` to `toCents` and go on? */
  capRaiseTitle(fromCents: number, toCents: number): string;
  /** The note of a price card that changed limits made unnecessary. */
  noLongerNeeded: string;
  /** Evidence on a checklist step a change of direction re-opened, and on one a new plan dropped (it keeps its results). */
  stepReopened(reason: string): string;
  stepDropped(reason: string): string;
  /** Evidence of a re-opened step naming its earlier results; of a checkpoint step the person answered. */
  earlierResults(list: string): string;
  /** A step's evidence when an input it was made from changed, and after the person's answer. */
  staleBecause(input: string): string;
  staleRemade(input: string): string;
  staleKept: string;
  personChose(label: string | null, note: string | null): string;

  // Irreversible actions a person asks for (deleting, forgetting): their cards.
  deleteObjectTitle(kind: ObjectKindName, name: string): string;
  deleteObjectReason: string;
  /** No content of the source in it: the card outlives the forgetting. */
  forgetSourceTitle(kind: SourceKindName, day: Date): string;
  forgetSourceReason: string;
  forgetMemoryTitle(kind: FactKind, subjectKey: string): string;
  forgetMemoryReason: string;
  /** The card's note that works contain what is forgotten (names are not stored on the card). */
  forgetWorksReason(count: number): string;
  /** Put where a forgotten value was removed from a work. */
  worksRemovedMarker: string;
  /** The summary of the version that removed it. */
  worksRedactedSummary: string;
  /** What readers see instead of an earlier version that contained it: its name, and why. */
  worksWithheldLabel: string;
  worksWithheldMessage: string;

  // Where a task is, in a few words, for clients that follow it from outside (the MCP server's
  // tasks and the A2A status message): the state, with the reason or the question when there is one.
  taskState: {
    paused(reason: string | null): string;
    completed: string;
    cancelled(reason: string | null): string;
    failed(reason: string | null): string;
    budgetExceeded: string;
    needsPerson(question: string): string;
    waiting(reason: string | null): string;
    working: string;
    queued: string;
  };

  // A person asked when the agent is stuck on something it may not or cannot settle itself
  // (runtime/escalation.ts): the card's title, then what the person is asked, per kind of card.
  escalation: {
    /** The agent tried a tool again after the policy refused it (it needs `scope`). */
    repeatedDenial(tool: string, scope: string | null): string;
    /** Whether the tool took effect is unknown (the worker stopped mid-call). */
    unknownOutcome(tool: string): string;
    ask: string;
    verify: string;
    escalate: string;
  };

  // Tools of other apps (MCP servers): the cards before a call, and what a call's outcome says
  // (the model reads these; a person sees them in the task's timeline).
  mcp: {
    /** The card before a call that may destroy something, or that an untrusted server would run. */
    callTitle(tool: string, server: string): string;
    /** The price card of a paid call. */
    paidCallTitle(tool: string, server: string, cents: number): string;
    destructiveReason: string;
    untrustedReason: string;
    /** A person did not allow the call (no note of their own). */
    declined: string;
    notActive(server: string): string;
    unreachable(server: string): string;
    /** The egress gate refused the server's address (host:port). */
    egressDenied(server: string, host: string): string;
    withdrawn(tool: string, server: string): string;
    changed(server: string, what: string): string;
    /** The tool answered isError with this text. */
    toolError(text: string): string;
    /** The call did not complete (a timeout, a lost connection). */
    noAnswer(server: string, detail: string): string;
    outputMismatch(problems: string): string;
    /** The server no longer knows the task a call was running as: whether it took effect is unknown. */
    taskGone(server: string): string;
    /** The server's task for the call ended without a result (cancelled, or waiting for input the agent cannot give). */
    taskEnded(server: string, status: string): string;
    /** What became of a paid call's price. */
    charged(cents: number): string;
    chargedUnknown(cents: number): string;
    notCharged: string;
  };

  // The offline model's words.
  offline: {
    tag: string;
    cannotReason(recorded: string): string;
    /** A tool of another app (MCP) the person named: calling it. */
    usingTool(tool: string): string;
    /** Its answer, as the task's delivery. */
    toolAnswered(tool: string, answer: string): string;
    /** It refused or failed: what it said. */
    toolFailed(tool: string, error: string): string;
    /** The person named a tool whose required inputs the offline model cannot fill from their words. */
    toolNeedsInput(tool: string, missing: string): string;
    noRequest: string;
    planning: string;
    declined: string;
    choose(step: string): string;
    confirm(step: string): string;
    /** A declined card with nothing said: what should change before the step is made again. */
    changeWhat(step: string): string;
    candidate(n: number): string;
    allDone: string;
    deliveredList(list: string): string;
    /** After a card was set aside by the person's words: planning again with them. */
    planningAgain(said: string): string;
    /** A next round's step that revises an earlier result (its title). */
    revise(title: string): string;
    step(s: OfflineStep): string;
    /** Progress lines in the task's timeline. */
    planned(kind: string): string;
    reopening(titles: string): string;
    generating(titles: string): string;
    writing(title: string): string;
    reading(title: string): string;
    updating(title: string): string;
    followsDirection(title: string): string;
    /** A plan's reason (offline rules, a revision, added context, a change of direction). */
    planReason(kind: string): string;
    revisedReason(said: string): string;
    contextReason(said: string): string;
    directionReason(direction: string | null): string;
    /** Evidence on a step it finished. */
    writtenEvidence: string;
    updatedEvidence: string;
    nothingToGenerate: string;
    /** Parts of a generation prompt (shown on the price card). */
    variant(n: number, of: number): string;
    inTheLookOf(choice: string): string;
    document: DocumentTexts;
  };
}
