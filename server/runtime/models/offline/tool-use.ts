// Tools of other apps (MCP servers an owner registered) for the offline model: explicit rules, no
// reasoning. A person who names such a tool in their words ("use the echo tool with 'hello'",
// "ruf get-sum mit 2 und 3 auf") gets it called, with its required inputs filled from what they
// wrote — quoted text for text inputs, their numbers for numeric inputs, in order — and its answer
// as the task's delivery. An input the words do not give is never invented: the model says what is
// missing instead. So a workspace without a configured model can still try its registered tools.
//
// It reads what every model reads: the bound tools (their JSON input schemas), the task brief and
// the conversation. MCP tools are the bound tools named `<server>__<tool>` (runtime/mcp/names.ts).
import type { BindToolsInput } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { messageText } from '../types.ts';
import { isUserText, safeJson } from './conversation.ts';
import { offlineTexts } from './texts.ts';
import type { FlowReply } from './flow.ts';

type Schema = { type?: string | string[]; enum?: unknown[]; description?: string };
type McpToolSpec = { name: string; label: string; words: string[]; required: string[]; properties: Record<string, Schema> };

const SEPARATOR = '__';

/** The bound MCP tools with what the rule needs of their input schemas. */
export function mcpToolSpecs(tools: readonly BindToolsInput[] | undefined): McpToolSpec[] {
  const out: McpToolSpec[] = [];
  for (const tool of tools ?? []) {
    const fn = (tool as { function?: { name?: unknown; parameters?: unknown } })?.function;
    const name = typeof fn?.name === 'string' ? fn.name : typeof (tool as { name?: unknown })?.name === 'string' ? (tool as { name: string }).name : null;
    if (!name || !name.includes(SEPARATOR)) continue;
    const params = (fn?.parameters ?? {}) as { properties?: Record<string, Schema>; required?: unknown };
    const label = name.slice(name.indexOf(SEPARATOR) + SEPARATOR.length);
    const spaced = label.replace(/_+/g, ' ').trim();
    out.push({
      name,
      label,
      // The tool as people write it: get_sum, get sum, get-sum, getSum is not guessed.
      words: [...new Set([label, spaced, label.replace(/_+/g, '-'), name])].filter((w) => w.length >= 3),
      required: Array.isArray(params.required) ? params.required.filter((r): r is string => typeof r === 'string') : [],
      properties: params.properties ?? {},
    });
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Words that say a tool is meant, right before or after its name ("the echo tool", "l'outil echo", "Echo-Werkzeug"). */
const TOOL_NOUN = '(?:tools?|werkzeugs?|werkzeug(?:e|en)?|outils?|herramientas?)';
/** Verbs that ask for a tool to be used, up to two words before its name ("use echo", "ruf bitte add auf", "utilise l'outil echo"). */
const USE_VERB =
  '(?:use|using|call|run|invoke|try|benutze?n?|nutze?n?|verwende?n?|ruf|rufe|nimm|nehmen|starte?|utilise[rz]?|appelle[rz]?|lance[rz]?|essaie[rz]?|usa|usar|llama|llamar|ejecuta|prueba)';

/** What may stand between such a verb and the name: articles, "please", "the tool" ("use the echo", "ruf bitte mal add"). */
const FILLER = `(?:the|a|an|my|your|this|that|das|den|dem|die|der|dein|mein|le|la|les|l['’]${TOOL_NOUN}|el|please|bitte|mal|doch|also|mon|ton|votre|mi|tu|su|${TOOL_NOUN})`;

type Mention = { spec: McpToolSpec; end: number; len: number; strong: boolean };

/**
 * The tool named in `text` (the longest mention wins), with where the mention ends. A tool whose name
 * is an ordinary word ("echo", "add", "wipe") is only meant when the words say a tool is meant — a
 * tool noun or a use verb beside it — or when the message starts with it (weak: then its inputs must
 * come from quotes, numbers or its choices, never from the rest of the sentence). Otherwise "add a
 * sunset to the poster" or "a poster with an echo of the sea" would call a tool instead of making a
 * poster. A name nobody writes by chance (get_sum, write-file, notes__echo) counts anywhere.
 */
function namedTool(specs: readonly McpToolSpec[], text: string): Mention | null {
  let best: Mention | null = null;
  const better = (m: Mention) => !best || (m.strong && !best.strong) || (m.strong === best.strong && m.len > best.len);
  for (const spec of specs) {
    for (const w of spec.words) {
      const word = escape(w).replace(/[ _-]/g, '[ _-]');
      const re = new RegExp(`(^|[^\\p{L}\\p{N}_])${word}(?![\\p{L}\\p{N}_])`, 'giu');
      for (const m of text.matchAll(re)) {
        const start = m.index + m[1]!.length;
        const end = m.index + m[0].length;
        const before = text.slice(0, start);
        const after = text.slice(end);
        const distinctive = /[_-]/.test(w) || w === spec.name;
        const nounAfter = new RegExp(`^[ -]?${TOOL_NOUN}(?![\\p{L}])`, 'iu').test(after);
        const nounBefore = new RegExp(`(?:^|[^\\p{L}])${TOOL_NOUN}\\s*[:"“„«']?\\s*$`, 'iu').test(before);
        const verbBefore = new RegExp(`(?:^|[^\\p{L}])${USE_VERB}(?:\\s+${FILLER}){0,2}\\s+$`, 'iu').test(before);
        const first = /^\s*(?:(?:please|now|then|and|also|bitte|jetzt|dann|und|noch|maintenant|puis|et|ahora|luego|y|por favor|s['’]il (?:te|vous) pla[iî]t)[\s,]+){0,2}$/iu.test(before);
        // "echo: hello" — the name as a heading of what follows.
        const colon = first && /^\s*:/.test(after);
        const strong = distinctive || nounAfter || nounBefore || verbBefore || colon;
        if (!strong && !first) continue;
        const found: Mention = { spec, end: nounAfter ? end + (/^[ -]?\p{L}+/u.exec(after)?.[0].length ?? 0) : end, len: w.length, strong };
        if (better(found)) best = found;
      }
    }
  }
  return best;
}

/**
 * Quoted text: straight and typographic quotes in the ways languages write them. A straight or
 * curly single quote inside a word is an apostrophe ("l'outil", "can't", "it's"), not a quote.
 */
const QUOTED = /"([^"]+)"|“([^”]+)”|„([^“”]+)[“”]|«\s*([^»]+?)\s*»|「([^」]+)」|(?<![\p{L}\p{N}])'((?:[^']|'(?=\p{L}))+)'(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])‘((?:[^’]|’(?=\p{L}))+)’(?![\p{L}\p{N}])/gu;
const NUMBER = /^-?\d+(?:[.,]\d+)?$/;

/**
 * Required inputs filled from the person's words; what cannot be filled is listed, never invented.
 * `strict`: only quotes, numbers and named choices count (a weak mention), not the rest of the sentence.
 */
export function fillArgs(spec: McpToolSpec, text: string, mentionEnd: number, strict = false): { args: Record<string, unknown>; missing: string[] } {
  const quoted = [...text.matchAll(QUOTED)].map((m) => (m.slice(1).find((g) => g !== undefined) ?? '').trim()).filter(Boolean);
  const rest = text.slice(mentionEnd).replace(QUOTED, ' ');
  const numbers = [...rest.matchAll(/-?\d+(?:[.,]\d+)?/g)].map((m) => Number(m[0].replace(',', '.')));
  const typeOf = (key: string) => {
    const t = spec.properties[key]?.type;
    return Array.isArray(t) ? t[0] : t;
  };
  const isEnum = (key: string) => Array.isArray(spec.properties[key]?.enum) && spec.properties[key]!.enum!.length > 0;
  // Quoted values go to the text inputs in order; quoted numbers left over count as numbers (a
  // person told to "write it in quotes" may well write add "2" "3").
  const textInputs = spec.required.filter((k) => !isEnum(k) && (typeOf(k) === 'string' || typeOf(k) === undefined)).length;
  numbers.push(...quoted.slice(textInputs).filter((q) => NUMBER.test(q)).map((q) => Number(q.replace(',', '.'))));
  const remainder = strict
    ? ''
    : text
        .slice(mentionEnd)
        .replace(/^[\s:,-]*(tool|werkzeug|outil|herramienta)?[\s:,-]*(with|mit|avec|con|using|for|für|pour|para)?\s*/i, '')
        .trim();
  const args: Record<string, unknown> = {};
  const missing: string[] = [];
  let q = 0;
  let n = 0;
  for (const key of spec.required) {
    const s = spec.properties[key] ?? {};
    const type = typeOf(key);
    if (isEnum(key)) {
      const hit = s.enum!.find((v) => typeof v === 'string' && new RegExp(`\\b${escape(v)}\\b`, 'i').test(text));
      if (hit !== undefined) args[key] = hit;
      else missing.push(key);
    } else if (type === 'string' || type === undefined) {
      const v = quoted[q++] ?? (spec.required.length === 1 && remainder ? remainder : undefined);
      if (v) args[key] = v;
      else missing.push(key);
    } else if (type === 'number' || type === 'integer') {
      const v = numbers[n++];
      if (v !== undefined && (type === 'number' || Number.isInteger(v))) args[key] = v;
      else missing.push(key);
    } else if (type === 'boolean') {
      args[key] = true;
    } else {
      missing.push(key);
    }
  }
  return { args, missing };
}

function preview(value: unknown): string {
  const r = value as { content?: { type?: string; text?: string }[]; structuredContent?: unknown; text?: unknown } | null;
  const texts = Array.isArray(r?.content) ? r!.content.filter((c) => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text!) : [];
  const s = texts.length ? texts.join(' ') : typeof r?.text === 'string' ? r.text : JSON.stringify(r?.structuredContent ?? value ?? null);
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 600 ? `${line.slice(0, 600)}…` : line;
}

/**
 * The offline model's next step with tools of other apps, or null when the rule has nothing to say
 * (no such tool bound, none named, or a plan's flow goes on after the call).
 */
export function offlineToolUse(messages: readonly BaseMessage[], tools: readonly BindToolsInput[] | undefined, toolNames: readonly string[]): FlowReply | null {
  const specs = mcpToolSpecs(tools);
  if (!specs.length) return null;
  const texts = messages.map((m) => ({ m, type: m.type, text: messageText(m) }));
  const brief = texts.find((t) => t.type === 'human' && t.text.startsWith('Task:'))?.text ?? '';
  const say = offlineTexts(brief);
  const TAG = say.offline.tag;
  const lastUser = texts.map((t) => t.type === 'human' && isUserText(t.text)).lastIndexOf(true);
  const lastAi = texts.map((t) => t.type).lastIndexOf('ai');
  const aiCalls = (lastAi >= 0 ? ((texts[lastAi]!.m as { tool_calls?: { id?: string; name: string }[] }).tool_calls ?? []) : []).filter((c) => c.name.includes(SEPARATOR));
  // 1. Its own call of a tool of another app has its answer (and no newer words of the person): deliver it.
  if (aiCalls.length && lastAi > lastUser) {
    const answers = texts.slice(lastAi + 1).filter((t) => t.type === 'tool');
    if (!answers.length) return null;
    const planned = texts.some((t) => t.type === 'ai' && ((t.m as { tool_calls?: { name: string }[] }).tool_calls ?? []).some((c) => c.name === 'plan_checklist'));
    if (planned) return null; // a plan's flow decides what comes next
    const lines = aiCalls.map((c, i) => {
      const spec = specs.find((s) => s.name === c.name);
      const label = spec?.label ?? c.name;
      const r = safeJson(answers[i]?.text ?? '') as { status?: string; result?: unknown; error?: string } | null;
      // A call a person declined (or that was set aside) answers with its decision and a note,
      // not with anything of the server's: said as the reason it did not run, not as an answer.
      const declined = r?.result as { status?: unknown; note?: unknown; content?: unknown } | null;
      if (declined && typeof declined.status === 'string' && declined.status !== 'DONE' && typeof declined.note === 'string' && declined.content === undefined) {
        return say.offline.toolFailed(label, declined.note);
      }
      const failed = !r || r.status !== 'DONE' || (r.result as { isError?: boolean } | null)?.isError === true;
      return failed ? say.offline.toolFailed(label, preview(r?.result ?? r?.error ?? r?.status ?? '')) : say.offline.toolAnswered(label, preview(r.result));
    });
    const summary = lines.join('\n');
    if (toolNames.includes('complete_task')) return { content: `${TAG} ${summary}`, calls: [{ name: 'complete_task', args: { summary: `${TAG} ${summary}` } }] };
    return { content: `${TAG} ${summary}`, calls: [] };
  }
  // 2. The person's latest words (or the task's goal) name a tool: call it with what they gave.
  const words = lastUser >= 0 ? texts[lastUser]!.text.replace(/^\[[^\]]+\]\s*/, '') : (brief.match(/^Goal: (.*)$/m)?.[1] ?? brief.match(/^Task: (.*)$/m)?.[1] ?? '');
  // Called once per request: a tool already called since these words is not called again.
  const calledSince = texts.slice(lastUser + 1).some((t) => t.type === 'ai' && ((t.m as { tool_calls?: { name: string }[] }).tool_calls ?? []).some((c) => c.name.includes(SEPARATOR)));
  if (calledSince) return null;
  const named = namedTool(specs, words);
  if (!named) return answerToQuestion(specs, texts, lastUser, words, say, TAG);
  const { args, missing } = fillArgs(named.spec, words, named.end, !named.strong);
  // A message that merely starts with a word that is also a tool's name, and gives it nothing, is
  // not about the tool: the flows answer it ("add a sunset to the poster").
  if (!named.strong && (missing.length || !named.spec.required.length)) return null;
  if (missing.length) return { content: `${TAG} ${say.offline.toolNeedsInput(named.spec.label, missing.join(', '))}`, calls: [] };
  return { content: `${TAG} ${say.offline.usingTool(named.spec.label)}`, calls: [{ name: named.spec.name, args }] };
}

/**
 * The person's answer to "echo needs text": their previous words named a tool and it was not
 * called (an input was missing), and these words name no tool — so what they give now is for that
 * tool. Asked again for what is still missing; nothing is invented.
 */
function answerToQuestion(
  specs: readonly McpToolSpec[],
  texts: readonly { m: BaseMessage; type: string; text: string }[],
  lastUser: number,
  words: string,
  say: ReturnType<typeof offlineTexts>,
  TAG: string,
): FlowReply | null {
  let previous: string;
  let asked: Mention | null;
  // A reply that starts a next round (the earlier one ended with the question): the question and
  // the words it answered are the last round of the "[earlier rounds]" block (domain/rounds.ts).
  const rounds = texts.find((t) => t.type === 'human' && t.text.startsWith('[earlier rounds]'))?.text;
  const earlier = lastUser >= 0 ? texts.slice(0, lastUser).map((t) => t.type === 'human' && isUserText(t.text)).lastIndexOf(true) : -1;
  if (earlier < 0 && rounds) {
    const last = rounds.split('\n').filter((l) => /^Round \d+ \(task /.test(l) || l.startsWith('Delivered: '));
    const head = last.findLastIndex((l) => l.startsWith('Round '));
    previous = last[head]?.match(/asked: “(.*)”$/)?.[1] ?? '';
    const delivered = last[head + 1]?.startsWith('Delivered: ') ? last[head + 1]! : '';
    asked = namedTool(specs, previous);
    if (!asked?.strong || !delivered.includes(TAG) || !delivered.includes(asked.spec.label)) return null;
  } else {
    if (lastUser < 0) return null;
    previous = earlier >= 0 ? texts[earlier]!.text.replace(/^\[[^\]]+\]\s*/, '') : (texts.find((t) => t.type === 'human' && t.text.startsWith('Task:'))?.text.match(/^Goal: (.*)$/m)?.[1] ?? '');
    asked = namedTool(specs, previous);
    if (!asked?.strong) return null;
    const between = texts.slice(earlier + 1, lastUser);
    if (between.some((t) => t.type === 'ai' && ((t.m as { tool_calls?: { name: string }[] }).tool_calls ?? []).some((c) => c.name.includes(SEPARATOR)))) return null;
    // The question was asked: the reply since those words names the tool's missing inputs.
    if (!between.some((t) => t.type === 'ai' && t.text.startsWith(TAG) && t.text.includes(asked!.spec.label))) return null;
  }
  const before = fillArgs(asked.spec, previous, asked.end);
  // What the earlier words gave stays; the new words fill what was missing, in order.
  const now = fillArgs({ ...asked.spec, required: before.missing }, words, 0);
  const args = { ...before.args, ...now.args };
  const missing = asked.spec.required.filter((k) => !(k in args));
  if (before.missing.length === missing.length) return null; // these words answer nothing of it
  if (missing.length) return { content: `${TAG} ${say.offline.toolNeedsInput(asked.spec.label, missing.join(', '))}`, calls: [] };
  return { content: `${TAG} ${say.offline.usingTool(asked.spec.label)}`, calls: [{ name: asked.spec.name, args }] };
}
