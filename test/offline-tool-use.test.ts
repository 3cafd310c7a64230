// The offline model and tools of other apps (MCP): a tool the person names is called with the
// inputs their words give — never invented ones — and its answer is delivered in the task's language.
// Through the real OfflineChatModel with bound tools, as the engine binds them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { OfflineChatModel } from '../server/runtime/models/offline-model.ts';

const fn = (name: string, properties: Record<string, unknown>, required: string[]) => ({
  type: 'function' as const,
  function: { name, description: `tool ${name}`, parameters: { type: 'object', properties, required } },
});
const TOOLS = [
  fn('add_note', { text: { type: 'string' } }, ['text']),
  fn('complete_task', { summary: { type: 'string' } }, ['summary']),
  fn('plan_checklist', { items: { type: 'array' } }, ['items']),
  fn('everything__echo', { message: { type: 'string' } }, ['message']),
  fn('everything__get_sum', { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
  fn('files__write_file', { path: { type: 'string' }, content: { type: 'string' } }, ['path', 'content']),
  fn('search__lookup', { query: { type: 'object' } }, ['query']),
  fn('images__resize', { size: { type: 'string', enum: ['small', 'large'] } }, ['size']),
  fn('notes__wipe', { target: { type: 'string' } }, ['target']),
  fn('notes__add', { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
];

const brief = (goal: string, language = 'English') => new HumanMessage(`Task: ${goal}\nGoal: ${goal}\nReply to the user in ${language}.`);

async function decide(messages: BaseMessage[]) {
  const model = new OfflineChatModel().bindTools(TOOLS);
  const out = (await model.invoke(messages)) as AIMessage;
  return { content: String(out.content), calls: (out.tool_calls ?? []).map((c) => ({ name: c.name, args: c.args })) };
}

describe('offline model: tools of other apps', () => {
  it('calls a named tool with the quoted text as its text input', async () => {
    const r = await decide([brief("Use the echo tool with 'hello world'")]);
    assert.deepEqual(r.calls, [{ name: 'everything__echo', args: { message: 'hello world' } }]);
    assert.match(r.content, /offline model/);
  });

  it('understands the tool written with spaces or dashes, in other languages, and takes numbers in order', async () => {
    const r = await decide([brief('Ruf bitte get-sum mit 2 und 3,5 auf', 'German')]);
    assert.deepEqual(r.calls, [{ name: 'everything__get_sum', args: { a: 2, b: 3.5 } }]);
    const fr = await decide([brief('Utilise get sum avec 7 et 8', 'French')]);
    assert.deepEqual(fr.calls, [{ name: 'everything__get_sum', args: { a: 7, b: 8 } }]);
  });

  it('fills several text inputs from quotes in order, and an enum only when it is named', async () => {
    const r = await decide([brief('write_file "notes.txt" with „Guten Tag“')]);
    assert.deepEqual(r.calls, [{ name: 'files__write_file', args: { path: 'notes.txt', content: 'Guten Tag' } }]);
    const e = await decide([brief('resize it, large please')]);
    assert.deepEqual(e.calls, [{ name: 'images__resize', args: { size: 'large' } }]);
  });

  it('never invents an input: it says what is missing, in the task language, and calls nothing', async () => {
    const r = await decide([brief('use get_sum please')]);
    assert.deepEqual(r.calls, []);
    assert.match(r.content, /get_sum needs a, b/);
    const de = await decide([brief('nimm lookup', 'German')]);
    assert.deepEqual(de.calls, []);
    assert.match(de.content, /lookup braucht query/);
  });

  it('delivers the answer once it came back, and reports a failure as one', async () => {
    const call = new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'everything__echo', args: { message: 'hi' }, type: 'tool_call' }] });
    const ok = await decide([brief("echo 'hi'", 'French'), call, new ToolMessage({ tool_call_id: 'c1', content: JSON.stringify({ status: 'DONE', result: { content: [{ type: 'text', text: 'Echo: hi' }] } }) })]);
    assert.equal(ok.calls.length, 1);
    assert.equal(ok.calls[0]!.name, 'complete_task');
    assert.match(String(ok.calls[0]!.args.summary), /echo a répondu : Echo: hi/);
    const failed = await decide([brief("echo 'hi'"), call, new ToolMessage({ tool_call_id: 'c1', content: JSON.stringify({ status: 'DONE', result: { isError: true, content: [{ type: 'text', text: 'boom' }] } }) })]);
    assert.match(String(failed.calls[0]!.args.summary), /echo did not work: boom/);
    const declined = await decide([
      brief("echo 'hi'"),
      call,
      new ToolMessage({ tool_call_id: 'c1', content: JSON.stringify({ status: 'DONE', result: { status: 'REJECTED', note: 'A person did not allow this call; nothing was sent.' } }) }),
    ]);
    const said = String(declined.calls[0]!.args.summary);
    assert.match(said, /echo did not work: A person did not allow this call; nothing was sent\./);
    assert.doesNotMatch(said, /[{}"]/, `no raw JSON: ${said}`);
  });

  it('calls a tool once per request, and again for a new message that names it', async () => {
    const call = new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'everything__echo', args: { message: 'hi' }, type: 'tool_call' }] });
    const answered = new ToolMessage({ tool_call_id: 'c1', content: JSON.stringify({ status: 'DONE', result: { content: [{ type: 'text', text: 'Echo: hi' }] } }) });
    const done = new AIMessage({ content: 'done', tool_calls: [{ id: 'c2', name: 'complete_task', args: { summary: 'x' }, type: 'tool_call' }] });
    const again = await decide([brief("echo 'hi'"), call, answered, done, new ToolMessage({ tool_call_id: 'c2', content: '{"status":"DONE"}' })]);
    assert.ok(!again.calls.some((c) => c.name.includes('__')), 'the same request is not answered twice');
    const next = await decide([brief("echo 'hi'"), call, answered, new HumanMessage("[message from the user] now echo 'bye'")]);
    assert.deepEqual(next.calls, [{ name: 'everything__echo', args: { message: 'bye' } }]);
  });

  it('an apostrophe inside a word is not a quote: the quoted text is what is sent', async () => {
    const fr = await decide([brief("Utilise l'outil echo avec 'bonjour'", 'French')]);
    assert.deepEqual(fr.calls, [{ name: 'everything__echo', args: { message: 'bonjour' } }]);
    const curly = await decide([brief('Utilise l’outil echo avec ‘bonjour tout le monde’', 'French')]);
    assert.deepEqual(curly.calls, [{ name: 'everything__echo', args: { message: 'bonjour tout le monde' } }]);
    const en = await decide([brief("can't you use echo with 'it's fine'")]);
    assert.deepEqual(en.calls, [{ name: 'everything__echo', args: { message: "it's fine" } }]);
    const de = await decide([brief('Benutze das Echo-Werkzeug mit „Hallo Welt“', 'German')]);
    assert.deepEqual(de.calls, [{ name: 'everything__echo', args: { message: 'Hallo Welt' } }]);
  });

  it('a tool named like an ordinary word is meant only when the words say so: a poster request stays a poster', async () => {
    for (const text of ['add a sunset to the poster', 'make a poster with an echo of the sea', 'wipe the floor with a poster about football', 'echo the style of the last poster in a new one']) {
      const r = await decide([brief(text)]);
      assert.ok(!r.calls.some((c) => c.name.includes('__')), `no tool for “${text}”: ${JSON.stringify(r.calls)}`);
      assert.equal(r.calls[0]?.name, 'plan_checklist', text);
    }
    // Said as a command, or with "tool" or a use verb beside it, it is the tool.
    assert.deepEqual((await decide([brief('add 2 and 3')])).calls, [{ name: 'notes__add', args: { a: 2, b: 3 } }]);
    assert.deepEqual((await decide([brief('echo: hi')])).calls, [{ name: 'everything__echo', args: { message: 'hi' } }]);
    assert.deepEqual((await decide([brief('Addiere mit dem add-Werkzeug 2 und 3', 'German')])).calls, [{ name: 'notes__add', args: { a: 2, b: 3 } }]);
  });

  it('numbers written in quotes, as the question about missing inputs suggests, are taken as numbers', async () => {
    const r = await decide([brief('use the add tool with "2" and "3"')]);
    assert.deepEqual(r.calls, [{ name: 'notes__add', args: { a: 2, b: 3 } }]);
  });

  it('the answer to "needs …" in the next message fills what was missing, and keeps what was given', async () => {
    const asked = await decide([brief('use the add tool with 2')]);
    assert.deepEqual(asked.calls, []);
    assert.match(asked.content, /add needs b/);
    const history = [brief('use the add tool with 2'), new AIMessage(asked.content), new HumanMessage('[message from the user] 3')];
    assert.deepEqual((await decide(history)).calls, [{ name: 'notes__add', args: { a: 2, b: 3 } }]);
    const text = await decide([brief('use the echo tool'), new AIMessage((await decide([brief('use the echo tool')])).content), new HumanMessage('[message from the user] hello there')]);
    assert.deepEqual(text.calls, [{ name: 'everything__echo', args: { message: 'hello there' } }]);
    // The same answer when it starts a next round (the question ended the earlier one).
    const rounds = new HumanMessage(`[earlier rounds] This task is round 2 of a line of work.\nRound 1 (task t1): COMPLETED — asked: “use the add tool with 2”\nDelivered: ${asked.content}`);
    assert.deepEqual((await decide([brief('3'), rounds])).calls, [{ name: 'notes__add', args: { a: 2, b: 3 } }]);
    // Words that give nothing of it are not taken for it.
    const other = await decide([brief('use the add tool with 2'), new AIMessage(asked.content), new HumanMessage('[message from the user] never mind, make a poster of a cat')]);
    assert.ok(!other.calls.some((c) => c.name.includes('__')), JSON.stringify(other.calls));
  });

  it('leaves every other request to the flows (a poster is still planned)', async () => {
    const r = await decide([brief('Make a poster for a jazz night')]);
    assert.equal(r.calls[0]?.name, 'plan_checklist');
  });
});
