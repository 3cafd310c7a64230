// The main thread answering by itself, in the asker's language (EN, DE, FR, ES, ZH, JA; templates in
// domain/replies/): greetings and thanks, "what can you do?", "what are you working on?", the state
// of a named task, what the workspace remembers ("what's our brand color?" → "teal (you told me on
// …)"), a lasting fact acknowledged as remembered; with a model configured, the model's answer to
// anything else, and offline an honest "I can't answer that" instead of a guess. Also: a message
// routed to a task is acknowledged in the thread by that task ("Got it — I'll make poster 2 warmer
// in “Coffee posters”"), and a command for a task ("stop the PPT") is applied as a signal.
//
// What this expects of routing (routing/types.ts RouteIntent; the router sets it, and
// replies/converse.ts sets it after the router when the router gave none):
//   ANSWER + intent REMEMBER         a lasting fact or preference stated on its own: acknowledged as
//                                    remembered; the memory extraction every message gets stores it.
//   ANSWER + intent STATUS           a question about the work as a whole (`candidates`: the tasks it
//                                    may mean, each answered; none: every live task).
//   EXISTING_TASK + intent STATUS    a question about `taskId`: answered from its state; not delivered,
//                                    no turn, no model call.
//   EXISTING_TASK + CANCEL/PAUSE/RESUME   a signal for `taskId` (replies/steer.ts).
//   CLARIFY + one of those intents   several tasks fit: a card asks which (its options carry the
//                                    intent: routing/deterministic.ts passes a card option's intent on).
//   ANSWER without intent            answered here (`reply` is used when a model wrote it).
import { detectLanguage } from '../../domain/language.ts';
import { asksAboutOwn, conversationOf, frameLanguage, isQuestion } from '../../domain/replies/intents.ts';
import { fact } from '../../domain/replies/facts.ts';
import { statusLine, statusText } from '../../domain/replies/status.ts';
import { textsFor, type Texts } from '../../domain/replies/texts.ts';
import type { SteerSignal } from '../../domain/replies/types.ts';
import type { RouteDecision } from '../../routing/types.ts';
import { asksAboutEarlierWork, retrieveEpisodes, timeWindow, type RetrievedEpisode } from '../memory/episodes.ts';
import { retrieveMemories } from '../memory/retrieve-memories.ts';
import { statedFacts } from './replies/remember.ts';
import { liveTaskIds, taskSnapshots } from './replies/status.ts';
import { askWhichTask, steerTask } from './replies/steer.ts';
import { CARD_CONFIRM_CANCEL, openCardOf, writeReply, type ThreadCtx, type ThreadEffect, type ThreadInput } from './replies/thread.ts';

export type { ThreadCtx, ThreadEffect, ThreadInput } from './replies/thread.ts';

const SIGNALS = new Set(['CANCEL', 'PAUSE', 'RESUME']);

/** The language to answer in: the asker's words (or the frame of their command), else the task's, else the thread's latest. */
async function languageOf(ctx: ThreadCtx, input: ThreadInput, taskLanguage?: string | null): Promise<Texts> {
  const detected = detectLanguage(input.text).language;
  // A short command may be too short to detect ("brich das Video ab"): its frame says the language.
  const asked = detected !== 'und' ? detected : frameLanguage(input.text);
  if (asked || taskLanguage) return textsFor(asked, taskLanguage);
  const last = await ctx.tx.message.findFirst({
    where: { threadId: input.threadId, role: 'USER', language: { not: null }, id: { not: input.messageId } },
    orderBy: { createdAt: 'desc' },
    select: { language: true },
  });
  return textsFor(last?.language);
}

/** Whether the decision is one this module carries out instead of a delivery (see the header). */
export function isThreadIntent(d: RouteDecision): boolean {
  return d.outcome === 'ANSWER' || (!!d.intent && d.intent !== 'REMEMBER' && (d.outcome === 'EXISTING_TASK' || d.outcome === 'CLARIFY'));
}

/** Carries out an ANSWER, or a STATUS / CANCEL / PAUSE / RESUME intent, in the thread. */
export async function answerInThread(ctx: ThreadCtx, input: ThreadInput, d: RouteDecision): Promise<ThreadEffect> {
  const { tx, deps, viewer } = ctx;
  const answering = await openCardOf(tx, input.messageId);
  const task = d.taskId ? await tx.task.findFirst({ where: { id: d.taskId, workspaceId: input.workspaceId }, select: { id: true, title: true, language: true } }) : null;
  const t = await languageOf(ctx, input, task?.language);
  const say = async (text: string, taskId: string | null = null): Promise<ThreadEffect> => {
    const reply = await writeReply(tx, input, { text, language: t.lang, taskId, card: answering });
    return { replyId: reply.id, cardId: null, taskId };
  };

  if (d.intent && SIGNALS.has(d.intent)) {
    const signal = d.intent as SteerSignal;
    if (task && d.outcome !== 'CLARIFY') return steerTask(ctx, input, t, { taskId: task.id, signal, answering });
    // Several tasks fit (or none was named): ask which, among the router's candidates or the live tasks.
    const candidates = d.candidates.length
      ? d.candidates
      : (await tx.task.findMany({ where: { id: { in: await liveTaskIds(deps.prisma, input.workspaceId, 4) } }, select: { id: true, title: true } })).map((x) => ({ taskId: x.id, title: x.title }));
    if (!candidates.length) return say(t.nothingInProgress);
    return askWhichTask(ctx, input, t, { signal, candidates });
  }
  if (d.intent === 'STATUS') {
    if (task) {
      const [snap] = await taskSnapshots(deps.prisma, [task.id]);
      const text = statusText(t, snap!);
      // "Keep it going" on a cancel's confirmation card: nothing changes; where it stands.
      return say(answering?.kind === CARD_CONFIRM_CANCEL ? `${t.kept(task.title)} ${text}` : text, task.id);
    }
    const ids = d.candidates.length ? d.candidates.map((c) => c.taskId) : await liveTaskIds(deps.prisma, input.workspaceId);
    const snaps = await taskSnapshots(deps.prisma, ids);
    if (!snaps.length) return say(t.nothingInProgress);
    return say(snaps.length === 1 ? statusText(t, snaps[0]!) : t.workingOn(snaps.map((s) => statusLine(t, s))));
  }
  if (d.intent === 'REMEMBER') {
    const { facts } = statedFacts(input.text);
    return say(facts.length ? t.remembered(facts) : t.nothingToRemember);
  }

  if (isQuestion(input.text)) {
    // Earlier work ("what did we settle on for the coffee posters last week?"): the episodes of that
    // time and subject, with their citations — before the current facts when the question names a
    // time, after them otherwise.
    const earlier = asksAboutEarlierWork(input.text);
    const episodes = async () =>
      earlier ? (await retrieveEpisodes(deps.prisma, { workspaceId: input.workspaceId, userId: viewer.userId, text: input.text, limit: 5 }).catch(() => ({ episodes: [] }))).episodes : [];
    const dated = earlier && timeWindow(input.text, new Date()).window !== null;
    if (dated) {
      const found = await episodes();
      if (found.length) return say(t.recalledEpisodes(found.map(episodeLine)));
    }
    // What the workspace remembers, when the question names it (its subject, not just a shared word):
    // stored facts before any model's words.
    const found = (await retrieveMemories(deps.prisma, { workspaceId: input.workspaceId, userId: viewer.userId, text: input.text, limit: 3 }, deps.embedder).catch(() => [])).filter(
      (m) => m.score >= 2,
    );
    if (found.length) return say(t.recalled(found.map((m) => ({ ...fact(m.subjectKey, m.value), since: m.citations[0]?.occurredAt ?? m.validFrom }))));
    if (earlier && !dated) {
      const found = await episodes();
      if (found.length) return say(t.recalledEpisodes(found.map(episodeLine)));
    }
  }
  // A model configured: its answer. Offline: only what the rules and the stored state can say.
  if (d.method === 'MODEL' && d.reply) return say(d.reply);
  const offline = deps.runtime.models.info.offline;
  const kind = conversationOf(input.text);
  if (kind === 'help') return say(t.help(offline));
  if (kind === 'workingOn') return say(await workingOn(ctx, input, t));
  if (kind === 'thanks') return say(t.thanks);
  if (kind === 'greeting') return say(t.greeting);
  if (isQuestion(input.text) && asksAboutOwn(input.text)) return say(t.recallUnknown);
  if (/\b(?:status|progress|finish\w*|done|ready|fertig|stand|prêt\w*|termin\w*|listo|lista)\b|进度|进展|好了吗|完成|進捗|終わ/iu.test(input.text)) {
    return say(await workingOn(ctx, input, t));
  }
  return say(t.cannotAnswer(offline));
}

/** An episode as the thread cites it: its sources (e:…) and its summary (s:…), as the worker's context does. */
function episodeLine(e: RetrievedEpisode) {
  const cites = [...e.evidenceIds.map((id) => `e:${id.slice(0, 8)}`), `s:${e.summaryId.slice(0, 8)}`].join(', ');
  return { ...fact(e.subjectKey, e.value), day: e.day, task: e.taskTitle, cites };
}

async function workingOn(ctx: ThreadCtx, input: ThreadInput, t: Texts): Promise<string> {
  const snaps = await taskSnapshots(ctx.deps.prisma, await liveTaskIds(ctx.deps.prisma, input.workspaceId));
  return snaps.length ? t.workingOn(snaps.map((s) => statusLine(t, s))) : t.nothingInProgress;
}

/**
 * The acknowledgement of a message routed to a task, from that task, in the asker's language:
 * "Got it — I'll make poster 2 warmer in “Coffee posters”", "On it — I've started “…”", or that an
 * ended task's work goes on in a new one. Nothing when the message got a reply already (a card, an
 * answer) or went to no task.
 */
export async function acknowledgeInThread(ctx: ThreadCtx, input: ThreadInput, d: RouteDecision, effect: { taskId: string | null; replyId: string | null }): Promise<string | null> {
  if (!effect.taskId || effect.replyId) return null;
  const task = await ctx.tx.task.findUnique({ where: { id: effect.taskId }, select: { id: true, title: true, language: true } });
  if (!task) return null;
  const t = await languageOf(ctx, input, task.language);
  let text: string;
  if (d.outcome === 'EXISTING_TASK' && d.taskId && d.taskId !== task.id) {
    const before = await ctx.tx.task.findUnique({ where: { id: d.taskId }, select: { title: true } });
    text = t.followUp(before?.title ?? task.title, task.title);
  } else text = d.outcome === 'EXISTING_TASK' ? t.delivered(task.title, input.text) : t.started(task.title);
  const reply = await writeReply(ctx.tx, input, { text, language: t.lang, taskId: task.id });
  return reply.id;
}
