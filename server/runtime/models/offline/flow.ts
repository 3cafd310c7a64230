// The next step of a flow, decided from the checklist and the conversation: plan, ask about a
// declined plan, re-open what a change of direction touches, generate, stop at checkpoints, write
// documents, deliver.
import type { BaseMessage } from '@langchain/core/messages';
import { messageText } from '../types.ts';
import { parseChecklist, type Item } from './checklist.ts';
import { classify } from './classify.ts';
import { CHANGE, isUserText, safeJson } from './conversation.ts';
import { directionLine, documentText, isDirectionLine, writtenDocument, type DocResult } from './documents.ts';
import { earlierCandidates, earlierReference, parseEarlierRounds, planNextRound } from './rounds.ts';
import { parseForkedFrom } from './forks.ts';
import { documentKind, isCandidateStep, localizedPlan, offlineTexts } from './texts.ts';

export type FlowCall = { name: string; args: Record<string, unknown> };
export type FlowReply = { content: string; calls: FlowCall[] };

const GENERATION = new Set(['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D']);
const TOOL_FOR: Record<string, string> = { IMAGE: 'generate_image', VIDEO: 'generate_video', AUDIO: 'generate_audio', MODEL_3D: 'generate_3d_model' };

/**
 * The next step of a flow, or null when the rules have nothing to say (the caller falls back to
 * its plain offline answer).
 */
export function offlineFlowReply(messages: readonly BaseMessage[], toolNames: readonly string[]): FlowReply | null {
  if (!toolNames.includes('plan_checklist')) return null;
  const texts = messages.map((m) => ({ type: m.type, text: messageText(m) }));
  const brief = texts.find((m) => m.type === 'human' && m.text.startsWith('Task:'))?.text ?? '';
  // What a person reads (step titles, questions, labels, the delivery) is in the task's language.
  const say = offlineTexts(brief);
  const TAG = say.offline.tag;
  const o = say.offline;
  const stateText = [...texts].reverse().find((m) => m.type === 'human' && m.text.startsWith('[task state]'))?.text ?? '';
  const items = parseChecklist(stateText);
  const lastAi = texts.map((m) => m.type).lastIndexOf('ai');
  const since = texts.slice(lastAi + 1);
  const userWords = texts.filter((m) => m.type === 'human' && isUserText(m.text)).map((m) => m.text.replace(/^\[[^\]]+\]\s*/, ''));
  const freshUser = since.filter((m) => m.type === 'human' && isUserText(m.text)).map((m) => m.text);
  const toolResults = since.filter((m) => m.type === 'tool').map((m) => safeJson(m.text));
  const subject = (brief.match(/^Task: (.*)$/m)?.[1] ?? '').trim();
  const goal = (brief.match(/^Goal: (.*)$/m)?.[1] ?? '').trim();
  const revisions = texts.filter((m) => m.type === 'human' && (/^\[revise from the user\]/.test(m.text) || (isUserText(m.text) && CHANGE.test(m.text))));
  // The latest words that change the work: a revision, or what a person wrote when declining a card.
  const cardNotes = texts
    .filter((m) => m.type === 'tool')
    .map((m) => safeJson(m.text)?.result as { decision?: string; choice?: string | null; note?: string | null } | undefined)
    .filter((r) => r && (r.decision === 'REJECTED' || (r.decision === 'APPROVED' && !r.choice)) && r.note?.trim())
    .map((r) => r!.note!.trim());
  // A fork goes on in the direction it was forked with, until a person says otherwise in it.
  const forked = parseForkedFrom(texts.find((m) => m.type === 'human' && m.text.startsWith('[forked from]'))?.text ?? '');
  const direction = revisions.length ? revisions.at(-1)!.text.replace(/^\[[^\]]+\]\s*/, '') : (cardNotes.at(-1) ?? forked?.edit ?? null);
  // A next round of a line of work: the earlier rounds, and what this round's request changes.
  const earlier = parseEarlierRounds(texts.find((m) => m.type === 'human' && m.text.startsWith('[earlier rounds]'))?.text ?? '');

  // 1. No plan yet: plan one from the request, if the rules recognise it.
  if (!items || items.length === 0) {
    if (toolResults.some((r) => r?.status === 'FAILED')) return null; // the plan was refused: answer plainly
    // The user's first message (the goal) says what is asked; the title and later words if it does not.
    // A next round plans only its change (./rounds.ts), from the earlier rounds' results.
    const plan = (earlier?.length ? planNextRound(goal || userWords.join(' '), earlier, say) : null) ?? classify(goal) ?? classify(subject) ?? classify(userWords.join(' '));
    if (!plan) return null;
    return {
      content: `${TAG} ${o.planned(plan.kind)}`,
      calls: [{ name: 'plan_checklist', args: { items: localizedPlan(plan.items, say), reason: o.planReason(plan.kind) } }],
    };
  }

  // 2. A declined plan: ask what to change instead of guessing.
  const declined = toolResults.find((r) => r?.status === 'DONE' && (r.result as { status?: string })?.status === 'REJECTED');
  if (declined) {
    return { content: TAG, calls: [{ name: 'ask_user', args: { kind: 'ADJUST', question: `${say.offline.declined}` } }] };
  }

  // 2b. A pick or a confirmation answered "none of these" / "decline" (or a question what to change
  // answered): never the same card again. The step the card was about is made again — new
  // candidates, a new storyboard — as a new round of that step (its orders pass the approvals gate
  // again), with what the person said as the direction; with nothing said, ask what to change.
  const answer = [...toolResults].reverse().find((r) => r?.status === 'DONE' && typeof (r.result as { decision?: unknown })?.decision === 'string')?.result as
    | { decision: string; choice?: string | null; note?: string | null }
    | undefined;
  const openCheckpoint = items.find((i) => i.status === 'TODO' || i.status === 'IN_PROGRESS');
  const changeAsked = answer && openCheckpoint?.kind === 'CHECKPOINT' && (answer.decision === 'REJECTED' || (answer.decision === 'APPROVED' && !answer.choice && !!answer.note?.trim()));
  if (changeAsked && openCheckpoint) {
    const note = answer.note?.trim() ?? '';
    // What the card showed: the candidates it chose among, else the step right before it.
    const before = items.filter((i) => i.n < openCheckpoint.n && i.status === 'DONE');
    const remake = [...before].reverse().find((i) => GENERATION.has(i.kind) && i.results.length >= 2) ?? before.at(-1);
    const candidates = !!remake && GENERATION.has(remake.kind) && remake.results.length >= 2;
    if (!note && !candidates) {
      return { content: TAG, calls: [{ name: 'ask_user', args: { kind: 'ADJUST', question: `${o.changeWhat(openCheckpoint.title)}` } }] };
    }
    if (!remake) {
      // Nothing of this round to make again (a pick among an earlier round's candidates): go on with what was said.
      return { content: TAG, calls: [{ name: 'update_checklist', args: { itemId: openCheckpoint.id, status: 'DONE', evidence: o.directionReason(note).slice(0, 2000) } }] };
    }
    {
      return {
        content: `${TAG} ${o.reopening(remake.title)}`,
        calls: [
          {
            name: 'plan_checklist',
            args: {
              items: items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, count: i.count, ...(i.id === remake.id ? { reopen: true } : {}) })),
              reason: o.directionReason(note || null).slice(0, 500),
            },
          },
        ],
      };
    }
  }

  // 3. The plan's card was set aside by the user's own instruction (a revision or added context
  // that came before the plan was approved): plan again with it. A revision that names a whole
  // request of its own ("make it five posters instead", "a video instead") plans that; otherwise the
  // same steps are planned again, and a new card asks about the plan with the instruction read.
  const setAside = toolResults.some((r) => {
    const result = r?.result as { status?: string; estimateCents?: unknown } | undefined;
    return r?.status === 'DONE' && result?.status === 'SUPERSEDED' && typeof result.estimateCents === 'number';
  });
  if (setAside) {
    const said = freshUser.map((t) => t.replace(/^\[[^\]]+\]\s*/, '')).join(' ');
    const revision = freshUser.some((t) => /^\[revise from the user\]/.test(t) || CHANGE.test(t));
    const replanned = revision ? classify(said) : null;
    const steps = replanned && replanned.items.length > 1 ? localizedPlan(replanned.items, say) : items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, count: i.count }));
    return {
      content: `${say.offline.tag} ${say.offline.planningAgain(said.slice(0, 200))}`,
      calls: [{ name: 'plan_checklist', args: { items: steps, reason: (revision ? o.revisedReason(said) : o.contextReason(said)).slice(0, 500) } }],
    };
  }

  // 4. A change of direction just arrived: re-open the generated steps it touches.
  if (freshUser.some((t) => /^\[revise from the user\]/.test(t) || CHANGE.test(t))) {
    // Generated steps, and a document this task wrote (the storyboard follows the new direction too).
    const touched = items.filter(
      (i) => (GENERATION.has(i.kind) && (i.status === 'DONE' || i.status === 'IN_PROGRESS' || i.ordered > 0) && !isCandidateStep(i)) || (i.kind === 'DOCUMENT' && i.status === 'DONE'),
    );
    if (touched.length) {
      const ids = new Set(touched.map((i) => i.id));
      return {
        content: `${TAG} ${o.reopening(touched.map((i) => i.title).join(', '))}`,
        calls: [
          {
            name: 'plan_checklist',
            args: {
              items: items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, count: i.count, ...(ids.has(i.id) ? { reopen: true } : {}) })),
              reason: o.directionReason(direction).slice(0, 500),
            },
          },
        ],
      };
    }
  }

  const open = items.filter((i) => i.status === 'TODO' || i.status === 'IN_PROGRESS');
  if (open.length === 0) {
    const done = items.filter((i) => i.status === 'DONE');
    return {
      content: `${say.offline.tag} ${say.offline.allDone}`,
      calls: [{ name: 'complete_task', args: { summary: `${say.offline.tag} ${say.offline.deliveredList(done.map((i) => `${i.title}${i.results.length ? ` (${i.results.join(', ')})` : ''}`).join('; '))}` } }],
    };
  }
  // A plan with edges is a graph: what may run now is every open step whose inputs are finished,
  // and the generation steps among them are ordered together (side by side, each through the
  // approvals gate and the ledger). A list plan goes step by step, as it always did.
  const graph = items.some((i) => i.after.length > 0);
  const finishedIds = new Set(items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED').map((i) => i.id));
  const ready = graph ? open.filter((i) => i.after.every((a) => finishedIds.has(a))) : open;
  const missingOf = (i: Item) => Math.max(0, i.count - Math.max(i.results.length, i.ordered));
  const readyToMake = ready.filter((i) => GENERATION.has(i.kind) && missingOf(i) > 0);
  const nextOther = ready.find((i) => !GENERATION.has(i.kind));
  if (graph && !readyToMake.length && !nextOther) {
    // Every ready step is generating: the next results (or a person's answer) wake the task.
    return { content: `${TAG} ${o.generating(ready.map((i) => i.title).join(', ') || open.map((i) => i.title).join(', '))}`, calls: [] };
  }
  // Writing (a character sheet) takes no time and shots use it: it goes before the orders; a
  // person's checkpoint goes after them, so nobody's pause holds up work that is ready.
  const writeFirst = graph && nextOther && nextOther.kind !== 'CHECKPOINT' ? nextOther : null;
  const first = graph ? (writeFirst ?? readyToMake[0] ?? nextOther!) : open[0]!;
  const chosen = texts
    .filter((m) => m.type === 'tool')
    .map((m) => safeJson(m.text)?.result as { decision?: string; choice?: string | null; choiceLabel?: string | null } | undefined)
    .filter((r) => r?.decision === 'APPROVED' && r.choice)
    .map((r) => r!.choiceLabel ?? r!.choice)
    // In a fork, a pick made before it (or at its step) was answered in the task it came from.
    .at(-1) ?? forked?.picks.at(-1)?.label;
  const style = chosen ? o.inTheLookOf(chosen) : '';
  const dir = direction ? ` — ${direction}` : earlier?.length && goal ? ` — ${goal}` : '';

  if (GENERATION.has(first.kind) && !writeFirst) {
    // This step and the open generation steps right after it (no checkpoint between) go together.
    const batch: Item[] = graph ? readyToMake : [];
    for (const i of graph ? [] : open.slice(open.indexOf(first))) {
      // Same kind only: a step of another kind may build on this one (a video from the image).
      if (!GENERATION.has(i.kind) || i.needsUser || (batch.length && i.kind !== batch[0]!.kind)) break;
      if (batch.length && i.n !== batch.at(-1)!.n + 1) break;
      batch.push(i);
    }
    const calls: FlowCall[] = [];
    for (const i of batch) {
      // Results already ordered (still generating) count: never order the same result twice.
      const missing = Math.max(0, i.count - Math.max(i.results.length, i.ordered));
      for (let k = 0; k < missing; k++) {
        const variant = i.count > 1 ? o.variant(i.results.length + k + 1, i.count) : '';
        // Consistency: a later generation starts from the pick of the latest earlier checkpoint (the
        // chosen candidate), else from the latest earlier result (e.g. the cat photo).
        // In a graph, the step's own inputs (a shot: the setting's picture, not whatever came last).
        const inputs = i.after.length ? items.filter((p) => i.after.includes(p.id) && p.results.length) : [];
        const before = inputs.length ? inputs : [...items].reverse().filter((p) => p.n < i.n && p.results.length);
        // A next round's step starts from the earlier result it revises (or the earlier pick).
        const ref = (before.find((p) => p.kind === 'CHECKPOINT') ?? before.find((p) => GENERATION.has(p.kind)))?.results[0] ?? (earlier ? (earlierReference(earlier, i) ?? undefined) : undefined);
        calls.push({
          name: TOOL_FOR[i.kind]!,
          args: { prompt: `${subject}: ${i.title}${variant}${style}${dir}`.slice(0, 4000), checklistItemId: i.id, ...(ref ? { referenceId: ref } : {}) },
        });
      }
    }
    if (calls.length) return { content: `${TAG} ${o.generating(batch.map((i) => i.title).join(', '))}`, calls };
  }
  if (first.kind === 'CHECKPOINT') {
    // A pick left open by an earlier round that ended is made among that round's candidates.
    const candidates = [...items].reverse().find((i) => i.n < first.n && GENERATION.has(i.kind) && i.results.length >= 2) ?? (earlier ? earlierCandidates(earlier) : null);
    if (candidates) {
      return {
        content: TAG,
        calls: [
          {
            name: 'ask_user',
            args: {
              kind: 'CHOOSE',
              question: `${say.offline.choose(first.title)}`,
              itemId: first.id,
              options: candidates.results.map((r, k) => ({ id: `c${k + 1}`, label: say.offline.candidate(k + 1), objectId: r.startsWith('object:') ? r.slice(7) : null })),
            },
          },
        ],
      };
    }
    return { content: TAG, calls: [{ name: 'ask_user', args: { kind: 'CONFIRM', question: `${say.offline.confirm(first.title)}`, itemId: first.id } }] };
  }
  if (first.kind === 'DOCUMENT') {
    const done: FlowCall = { name: 'update_checklist', args: { itemId: first.id, status: 'DONE', evidence: `${o.writtenEvidence}` } };
    // The step's own document: its result, or (re-opened) the earlier result its evidence names;
    // a plan with one document step may also find it in the conversation (older checklists).
    const own = [...first.results, ...(first.evidence.match(/object:[0-9a-f-]{36}/gi) ?? [])].find((r) => r.startsWith('object:'))?.slice('object:'.length);
    const docId = own ?? (items.filter((i) => i.kind === 'DOCUMENT').length === 1 ? writtenDocument(texts) : null);
    if (!docId || !toolNames.includes('read_object') || !toolNames.includes('edit_document')) {
      const text = documentText(first.title, subject, direction, documentKind(first), say);
      const write: FlowCall = toolNames.includes('create_document')
        ? { name: 'create_document', args: { name: `${first.title} — ${subject}`.slice(0, 200), markdown: text, checklistItemId: first.id } }
        : { name: 'add_note', args: { text: text.slice(0, 2000) } };
      return { content: `${TAG} ${o.writing(first.title)}`, calls: [write, done] };
    }
    // The step was re-opened (a change of direction) and its document exists: one document, read
    // before it is written, and only the direction line changed (others' edits are kept).
    const last = toolResults.at(-1)?.result as DocResult | undefined;
    if (last?.ok && last.objectId === docId && last.content === undefined) {
      // The same document is the step's result again (re-opening set its results aside).
      return { content: `${TAG} ${o.followsDirection(first.title)}`, calls: [{ ...done, args: { ...done.args, evidence: `${o.updatedEvidence}`, objectIds: [docId] } }] };
    }
    if (last?.ok && last.objectId === docId && typeof last.content?.markdown === 'string') {
      const markdown = last.content.markdown;
      const lines = markdown.split('\n').filter(isDirectionLine);
      const next = directionLine(direction, say);
      const call: FlowCall =
        lines.length === 1 && markdown.split(lines[0]!).length === 2
          ? { name: 'edit_document', args: { objectId: docId, baseVersion: last.version, edits: [{ find: lines[0]!, replace: next }] } }
          : { name: 'write_object', args: { objectId: docId, baseVersion: last.version, content: { markdown: `${markdown.trimEnd()}\n\n${next}\n` } } };
      return { content: `${TAG} ${o.updating(first.title)}`, calls: [call] };
    }
    return { content: `${TAG} ${o.reading(first.title)}`, calls: [{ name: 'read_object', args: { objectId: docId } }] };
  }
  return { content: TAG, calls: [{ name: 'update_checklist', args: { itemId: first.id, status: 'DONE', evidence: `${o.nothingToGenerate}` } }] };
}
