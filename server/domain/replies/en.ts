// English message templates.
import { subjectWords } from './facts.ts';
import { clip, formatDate, formatMoney, quote } from './languages.ts';
import type { Fact, FactKind, ObjectKindName, SourceKindName, GenerationKindName, OfflineStep, PaidWork, SteerSignal, TaskStateView, Texts } from './types.ts';

const q = (s: string) => quote('en', s);
const money = (c: number) => formatMoney('en', c);
const list = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const IMPERATIVE =
  /^(make|change|add|use|remove|drop|put|turn|try|give|set|move|swap|replace|keep|crop|fix|tweak|adjust|brighten|darken|warm|cool|shorten|lengthen|rewrite|write|render|redo|update|include|mention|show|increase|reduce|lower|raise|mute|boost|soften|sharpen|center|align|resize|rename|translate|finish|extend|cut|trim)\b/i;

/** "can you make poster 2 warmer?" → "make poster 2 warmer" (null when it is not an instruction). */
export function asInstruction(said: string): string | null {
  let s = said.replace(/\s+/g, ' ').trim().replace(/[.!?\s]+$/u, '');
  s = s.replace(/^(ok(ay)?|so|and|also|hey|hi|now)[,\s]+/i, '').replace(/^(please|pls|plz|kindly)\s+/i, '');
  s = s.replace(/^(can|could|would|will) you( please)?\s+/i, '').replace(/[,\s]+please$/i, '');
  if (!IMPERATIVE.test(s) || /[.!?;]/.test(s) || s.length > 90) return null;
  s = s.replace(/\bmy\b/gi, 'your').replace(/\bme\b/gi, 'you').replace(/\bmine\b/gi, 'yours');
  return s.charAt(0).toLowerCase() + s.slice(1);
}

function fact(f: Fact): string {
  const v = f.value;
  const by: Record<FactKind, string> = {
    brandColor: `our brand color is ${v}`,
    brandFont: `our brand font is ${v}`,
    brandTone: `our brand tone is ${v}`,
    brandLogo: `our logo is ${v}`,
    brandTagline: `our tagline is ${v}`,
    companyName: `our company is called ${v}`,
    companyLocation: `our studio is in ${v}`,
    signature: `you sign as ${v}`,
    residence: `you live in ${v}`,
    name: `your name is ${v}`,
    work: `you work ${v}`,
    prefer: `you prefer ${v}`,
    avoid: `you'd rather avoid ${v}`,
    habit: `you always ${v}`,
    other: `${subjectWords(f.subject)}: ${v}`,
  };
  return by[f.kind];
}

const LABEL: Record<FactKind, string> = {
  brandColor: 'Brand color',
  brandFont: 'Brand font',
  brandTone: 'Brand tone',
  brandLogo: 'Logo',
  brandTagline: 'Tagline',
  companyName: 'Company name',
  companyLocation: 'Your studio',
  signature: 'You sign as',
  residence: 'Where you live',
  name: 'Your name',
  work: 'Your work',
  prefer: 'You prefer',
  avoid: 'You avoid',
  habit: 'You always',
  other: 'Remembered',
};

const VERB: Record<SteerSignal, string> = { CANCEL: 'stop', PAUSE: 'pause', RESUME: 'resume' };
const OBJECT: Record<ObjectKindName, string> = { IMAGE: 'image', VIDEO: 'video', AUDIO: 'audio', MODEL_3D: '3D model', DOCUMENT: 'document', COLLECTION: 'collection', FLOW: 'flow' };
const SOURCE: Record<SourceKindName, string> = { MESSAGE: 'a message', NOTE: 'a note', OBSERVATION: 'an observation' };

function state(s: TaskStateView): string {
  switch (s.kind) {
    case 'paused':
      return `is paused${s.reason ? ` (${s.reason})` : ''}`;
    case 'decision':
      return `is waiting for your decision: ${s.title}`;
    case 'generating':
      return `is generating (${s.running} running)`;
    case 'waiting':
      return 'is waiting';
    case 'working':
      return 'is being worked on';
    case 'queued':
      return 'is about to continue';
    case 'completed':
      return 'is finished';
    case 'failed':
      return `failed${s.reason ? ` (${s.reason})` : ''}`;
    case 'cancelled':
      return 'was cancelled';
    case 'budget':
      return 'stopped at its budget cap';
  }
}

function paidWork(p: PaidWork): string {
  const parts: string[] = [];
  if (p.runningJobs) parts.push(`${p.runningJobs} generation${p.runningJobs === 1 ? ' is' : 's are'} running`);
  if (p.heldCents) parts.push(`${money(p.heldCents)} is held`);
  if (p.approvedCents) parts.push(`a plan budget of ${money(p.approvedCents)} is approved`);
  return list(parts);
}

const KIND: Record<GenerationKindName, string> = { IMAGE: 'an image', VIDEO: 'a short video', AUDIO: 'an audio clip', MODEL_3D: 'a 3D model' };

function step(s: OfflineStep): string {
  switch (s.step) {
    case 'lookCandidates':
      return 'Look candidates';
    case 'pickDirection':
      return 'Pick a direction';
    case 'poster':
      return `Poster ${s.n}`;
    case 'image':
      return s.n === null ? 'Image' : `Image ${s.n}`;
    case 'storyboard':
      return 'Storyboard';
    case 'confirmStoryboard':
      return 'Confirm the storyboard';
    case 'character':
      return 'Character sheet';
    case 'setting':
      return 'Setting';
    case 'finalCut':
      return 'Final cut';
    case 'shot':
      return `Shot ${s.n}`;
    case 'referenceImage':
      return 'Reference image';
    case 'videoFromImage':
      return 'Video from the image';
    case 'audioClip':
      return 'Audio clip';
    case 'model3d':
      return '3D model';
    case 'brief':
      return 'Brief';
    case 'text':
      return 'Text';
  }
}

export const en: Texts = {
  lang: 'en',
  money,
  date: (d) => formatDate('en', d),
  q,

  greeting: 'Hello! What shall we make?',
  thanks: "You're welcome.",
  help: (offline) =>
    'Tell me what to make — a poster series, an image, a short video, a 3D model, a sound, a storyboard or a brief — and I start a task and keep you posted here. ' +
    'You can also ask what I am working on or how a task is going (“where’s the video at?”), tell me to stop, pause or resume one (“pause the posters”), ' +
    'and tell me things to remember (“our brand color is teal”).' +
    (offline ? ' No language model is configured, so I work by fixed rules and say so.' : ''),
  cannotAnswer: (offline) =>
    offline
      ? "I can't answer that: no language model is configured, so I only answer from what is stored — what is in progress, how a task is going, and what you told me to remember."
      : "I don't have an answer to that.",
  nothingInProgress: "Nothing is in progress right now. Tell me what you'd like to make and I'll start a task.",
  workingOn: (lines) => ["Here's what I'm working on:", ...lines.map((l) => `• ${l}`)].join('\n'),

  status: (title, s) => `${q(title)} ${state(s)}.`,
  progress: (done, total, next) => `${done} of ${total} steps done${next ? `; next: ${next}` : ''}.`,
  cost: (cents) => `Cost so far: ${money(cents)}.`,

  delivered: (title, said) => {
    const i = asInstruction(said);
    return i ? `Got it — I'll ${i} in ${q(title)}.` : `Got it — ${q(title)} takes this on: ${q(clip(said))}.`;
  },
  started: (title) => `On it — I've started ${q(title)}.`,
  followUp: (ended, title) => `${q(ended)} had already ended, so I started a follow-up: ${q(title)}.`,

  remembered: (facts) => `Noted — I'll remember that ${list(facts.map(fact))}.`,
  nothingToRemember: 'Noted. I found no lasting fact in that to remember; say it like “our brand color is …” or “I prefer …”.',
  recalled: (facts) => facts.map((f) => `${LABEL[f.kind]}: ${f.value} (you told me on ${formatDate('en', f.since)}).`).join('\n'),
  recallUnknown: "I don't have that remembered. Tell me (“our brand color is …”) and I'll remember it.",
  recalledEpisodes: (episodes) => ['From earlier work:', ...episodes.map((e) => `- ${formatDate('en', e.day)}, ${e.task ? `in ${q(e.task)}` : 'in our thread'}: ${LABEL[e.kind]}: ${e.value} [${e.cites}]`)].join('\n'),

  steered: (signal, title, result) => {
    if (result === 'ended') return `${q(title)} has already ended; there is nothing to ${VERB[signal]}.`;
    if (result === 'already') return signal === 'RESUME' ? `${q(title)} is already running.` : signal === 'PAUSE' ? `${q(title)} is already paused.` : `${q(title)} was already stopped.`;
    return signal === 'RESUME' ? `Resumed ${q(title)}.` : signal === 'PAUSE' ? `Paused ${q(title)}. Tell me when to resume it.` : `Stopped ${q(title)}.`;
  },
  confirmCancel: (title, paid) => `Stopping ${q(title)} would abandon paid work: ${paidWork(paid)}. Stop it anyway?`,
  confirmYes: (signal) => `Yes, ${VERB[signal]} it`,
  confirmNo: 'No, keep it going',
  kept: (title) => `OK — ${q(title)} keeps going.`,
  whichTask: (signal) => `Which task should I ${VERB[signal]}?`,
  steerOption: (signal, title) => `${cap(VERB[signal])} ${q(title)}`,
  nevermind: 'Never mind',

  clarifyWhich: 'Which task is this for?',
  clarifyMore: 'Could you say a bit more about what you would like?',
  continueOption: (title) => `Continue "${title}"`,
  newTaskOption: 'Start a new task',

  deliveredFallback: 'Delivered.',
  deliveredHeader: (done, total) => `Delivered (${done} of ${total} steps):`,
  skipped: (l) => `Skipped: ${l}`,
  noReason: 'no reason',
  planTitle: (steps, cents) => `Plan: ${steps} steps, estimated ${money(cents)}`,
  impactTitle: (input, n, cents) => `“${input}” changed: make ${n} result${n === 1 ? '' : 's'} made from it again for ${money(cents)}?`,
  impactRemake: (step, input, cents) => `Make “${step}” again (${money(cents)}): it was made from the earlier “${input}”.`,
  impactKeeps: (list) => `Stays as it is: ${list}.`,
  impactWaits: (list) => `Not made yet, will use the new version: ${list}.`,
  changedPlanTitle: (steps, budget, spent) => `Changed plan: ${steps} steps, budget ${money(budget)} (${money(spent)} already spent)`,
  planReasonNew: 'A new plan is approved before work starts.',
  planReasonAgain: 'The plan grew in paid results or cost since it was approved.',
  generateTitle: (kind, cents, prompt) => `Generate ${KIND[kind]} for ${money(cents)}: ${q(prompt)}`,
  checkpointReason: 'The agent needs your decision to go on.',
  approvalReason: (r) => {
    switch (r.code) {
      case 'AUTONOMY_MANUAL':
        return 'Autonomy is set to manual: every paid action is confirmed.';
      case 'CREDENTIAL_CONFIRMS_EACH':
        return 'This task was started through an integration whose paid actions are confirmed one by one.';
      case 'PLAN_BUDGET':
        return `This would bring the task to ${money(r.totalCents)}, above the approved plan budget of ${money(r.budgetCents)}.`;
      case 'PER_ACTION_LIMIT':
        return `${money(r.quoteCents)} is above the confirmation-free amount of ${money(r.freeCents)} per action.`;
      case 'DAILY_LIMIT':
        return `Today's paid actions would reach ${money(r.totalCents)}, above the confirmation-free ${money(r.freeCents)} per day.`;
    }
  },
  supersededNote: (by, said) => `Set aside by ${{ REVISE: 'your revision', ADD_CONTEXT: 'the context you added', MESSAGE: 'your message' }[by]}: ${q(said)}`,
  budgetCapReason: (quote, total, cap) => `This action (${money(quote)}) would take the task to ${money(total)}, over its budget cap of ${money(cap)}.`,
  capRaiseTitle: (from, to) => `This task reached its budget cap of ${money(from)}. Raise it to ${money(to)} and go on?`,
  noLongerNeeded: 'No longer needed: within the current limits.',
  stepReopened: (reason) => `re-opened: ${reason}`,
  stepDropped: (reason) => `dropped from the plan: ${reason}`,
  earlierResults: (list) => `earlier results: ${list}`,
  staleBecause: (input) => `made from an earlier “${input}”, which has changed`,
  staleRemade: (input) => `made again: “${input}” changed`,
  staleKept: 'kept as it was: a person chose to keep it after the change',
  personChose: (label, note) => `${label ? `the user chose “${label}”` : 'the user confirmed'}${note ? `: ${note}` : ''}`,
  deleteObjectTitle: (kind, name) => `Delete ${OBJECT[kind]} ${q(name)}`,
  deleteObjectReason: 'Deleting an object cannot be undone by the user.',
  forgetSourceTitle: (kind, day) => `Forget everything remembered from ${SOURCE[kind]} of ${formatDate('en', day)}${kind === 'MESSAGE' ? ' — the message itself stays in the chat' : ''}`,
  forgetSourceReason: 'Forgotten memories, summaries and profile entries cannot be restored.',
  forgetMemoryTitle: (kind, key) => `Forget a memory: ${kind === 'other' ? subjectWords(key) : LABEL[kind]}`,
  forgetMemoryReason: 'A forgotten memory cannot be restored.',
  forgetWorksReason: (n) => `It also appears in ${n === 1 ? 'one of your works' : `${n} of your works`}; after forgetting you can remove it from the ones you choose.`,
  worksRemovedMarker: '[removed]',
  worksRedactedSummary: 'removed something you asked to forget',
  worksWithheldLabel: '[withheld]',
  worksWithheldMessage: 'Withheld: this version contained something you asked to forget.',

  taskState: {
    paused: (r) => (r ? `Paused — ${r}` : 'Paused'),
    completed: 'Completed',
    cancelled: (r) => (r ? `Cancelled — ${r}` : 'Cancelled'),
    failed: (r) => (r ? `Failed — ${r}` : 'Failed'),
    budgetExceeded: 'Stopped: it reached its budget cap',
    needsPerson: (q) => `Needs a person's decision in Atelier: ${q}`,
    waiting: (r) => (r ? `Waiting — ${r}` : 'Waiting'),
    working: 'Working',
    queued: 'About to continue',
  },
  escalation: {
    repeatedDenial: (tool, scope) => `The agent tried “${tool}” again after it was refused${scope ? `: it needs the right “${scope}”, which the workspace's owners have not given it` : ''}.`,
    unknownOutcome: (tool) => `The agent cannot tell whether “${tool}” took effect: its work was interrupted mid-call.`,
    ask: 'May the agent go on without it, or will you do it yourself? Tell it how to continue.',
    verify: 'Please check whether it took effect, and tell the agent what you found.',
    escalate: 'An owner should look at what the agent tried. Tell it how to continue.',
  },
  mcp: {
    callTitle: (tool, server) => `Let the agent use ${q(tool)} of ${q(server)}?`,
    paidCallTitle: (tool, server, cents) => `Use ${q(tool)} of ${q(server)} for ${money(cents)}?`,
    destructiveReason: 'The server marks this tool as destructive: what it does may not be undone.',
    untrustedReason: 'The server is not trusted, and this tool may change something.',
    declined: 'A person did not allow this call; nothing was sent.',
    notActive: (server) => `The MCP server ${q(server)} is not active; nothing was sent.`,
    unreachable: (server) => `The MCP server ${q(server)} could not be reached. Nothing was sent.`,
    egressDenied: (server, host) => `The MCP server ${q(server)} may not be reached: calls to ${host} are not allowed for this workspace (egress). Nothing was sent. An owner can allow the host.`,
    withdrawn: (tool, server) => `The tool ${q(tool)} is no longer offered by ${q(server)}; nothing was sent.`,
    changed: (server, what) => `The MCP server ${q(server)} changed its tools (${what}); an owner must approve the change. Nothing was sent.`,
    toolError: (text) => `The tool reported an error: ${text || 'no details given'}`,
    noAnswer: (server, detail) => `The MCP server ${q(server)} did not complete the call: ${detail}`,
    outputMismatch: (problems) => `The tool answered with a result that does not match its declared output: ${problems}`,
    taskGone: (server) => `The MCP server ${q(server)} no longer knows the task this call was running as; whether it took effect is unknown. Check before calling it again.`,
    taskEnded: (_server, status) => `The task of the MCP server for this call ended without a result (${status}).`,
    charged: (cents) => `Its price, ${money(cents)}, was charged: the server may have done the work.`,
    chargedUnknown: (cents) => `Its price, ${money(cents)}, was charged once: the call may have happened. Check before calling it again — a new call is a new charge.`,
    notCharged: 'Nothing was charged.',
  },
  offline: {
    tag: '[offline model]',
    cannotReason: (recorded) => `I can't reason without a configured model (set OPENAI_API_KEY or OPENAI_BASE_URL). Recorded: ${recorded}`,
    usingTool: (tool) => `Calling ${tool}.`,
    toolAnswered: (tool, answer) => `${tool} answered: ${answer}`,
    toolFailed: (tool, error) => `${tool} did not work: ${error}`,
    toolNeedsInput: (tool, missing) => `${tool} needs ${missing}; write it in quotes, e.g. ${tool} "…".`,
    noRequest: '(no request given)',
    planning: 'Planning from fixed rules.',
    declined: 'The plan was declined. What should I change?',
    choose: (s) => `${s}: which one should the rest follow?`,
    confirm: (s) => `${s} — shall I go on?`,
    changeWhat: (s) => `None of these for “${s}”? Tell me what to change and I'll make it again.`,
    candidate: (n) => `Candidate ${String.fromCharCode(64 + n)}`,
    allDone: 'All steps are done.',
    deliveredList: (l) => `Delivered: ${l}`,
    planningAgain: (said) => `Planning again with what you said: ${said}`,
    revise: (title) => `Revise ${title}`,
    step,
    planned: (k) => `Planning: ${k.replace(/-/g, ' ')}, from fixed rules.`,
    reopening: (t) => `Change of direction: re-opening ${t}.`,
    generating: (t) => `Generating ${t}.`,
    writing: (t) => `Writing the ${t.toLowerCase()} from a template.`,
    reading: (t) => `Reading the ${t.toLowerCase()} before changing it.`,
    updating: (t) => `Updating the ${t.toLowerCase()} for the new direction.`,
    followsDirection: (t) => `The ${t.toLowerCase()} follows the new direction.`,
    planReason: (k) => `offline plan (${k})`,
    revisedReason: (s) => `revised: ${s}`,
    contextReason: (s) => `with added context: ${s}`,
    directionReason: (d) => `change of direction: ${d ?? 'revised'}`,
    writtenEvidence: 'written from a template',
    updatedEvidence: 'updated for the new direction',
    nothingToGenerate: 'nothing to generate for this step',
    variant: (n, of) => ` (variant ${n} of ${of})`,
    inTheLookOf: (c) => ` — in the look of ${c}`,
    document: {
      directionPrefix: 'Direction: ',
      asBriefed: 'as briefed',
      storyboard: 'Storyboard',
      shot: (n, h) => `Shot ${n}: ${h}`,
      shots: [
        ['Establishing shot', 'wide, slow push-in; sets the place and the mood'],
        ['The subject', 'medium shot; the main action'],
        ['Closing image', 'close-up, hold; the line or logo'],
      ],
      seconds: (n) => `${n} s`,
      brief: 'Brief',
      briefSections: [
        ['Goal', 'What the work must achieve.'],
        ['Audience', 'Who it is for.'],
        ['Tone', 'How it should feel.'],
        ['Deliverables', 'What is delivered, in which formats.'],
      ],
      firstDraft: (s) => `A first draft for: ${s}.`,
      fromTemplate: 'written from a fixed template',
    },
  },
};
