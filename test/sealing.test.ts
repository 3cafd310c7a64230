// Sealed text (domain/sealing.ts), without a database: what is sealed and what stays readable, the
// round trip, idempotence, a destroyed or wrong key, tampering, and whose events are sealed.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { openValue, sealedKeyIds, sealsEvent, sealText, sealValue, WITHHELD_TEXT, type KnownKey } from '../server/domain/sealing.ts';

const key = { id: randomUUID(), material: randomBytes(32) };
const live = new Map<string, KnownKey>([[key.id, { material: key.material, reason: null }]]);
const gone = new Map<string, KnownKey>([[key.id, { material: null, reason: 'FORGOTTEN' }]]);
const decision = {
  content: 'Using the brand colour zorblaxmauve.',
  toolCalls: [{ id: 'call_1', name: 'generate_image', args: { prompt: 'a poster in zorblaxmauve', count: 2, finishWhenDone: false, checklistItemId: 'img' } }],
};
const status = { from: 'RUNNING', to: 'WAITING', transition: 'wait', reason: 'waiting for the image in zorblaxmauve', taskId: randomUUID() };

test('content strings are sealed; structure, ids, statuses and tool names stay readable; the round trip is exact', () => {
  const sealed = sealValue(key, decision);
  const text = JSON.stringify(sealed);
  assert.ok(!text.includes('zorblaxmauve'), text);
  assert.equal(sealed.toolCalls[0]!.name, 'generate_image');
  assert.equal(sealed.toolCalls[0]!.id, 'call_1');
  assert.equal(sealed.toolCalls[0]!.args.count, 2);
  assert.equal(sealed.toolCalls[0]!.args.checklistItemId, 'img');
  const s2 = sealValue(key, status);
  assert.deepEqual([s2.from, s2.to, s2.transition, s2.taskId], [status.from, status.to, status.transition, status.taskId]);
  assert.notEqual(s2.reason, status.reason);
  assert.deepEqual(openValue(live, sealed), { value: decision, withheld: null });
  assert.deepEqual([...sealedKeyIds(sealed)], [key.id]);
  // A checklist step's edges are step ids: the graph stays readable (a forgetting never cuts it), its title does not.
  const step = sealValue(key, { id: 'shot-2', title: 'The keeper zorblaxmauve', after: ['character-sheet', 'setting'] });
  assert.deepEqual(step.after, ['character-sheet', 'setting']);
  assert.notEqual(step.title, 'The keeper zorblaxmauve');
});

test('sealing is idempotent, and each sealing of the same text differs (random IV)', () => {
  const once = sealValue(key, decision);
  assert.deepEqual(sealValue(key, once), once);
  assert.notEqual(sealText(key, 'same'), sealText(key, 'same'));
});

test('with the key destroyed, unknown or wrong, or the ciphertext altered, content reads as the withheld marker — never ciphertext, never an exception', () => {
  const sealed = sealValue(key, decision);
  for (const keys of [gone, new Map<string, KnownKey>(), new Map<string, KnownKey>([[key.id, { material: randomBytes(32), reason: null }]])]) {
    const o = openValue(keys, sealed);
    assert.equal(o.value.content, WITHHELD_TEXT);
    assert.equal(o.value.toolCalls[0]!.args.prompt, WITHHELD_TEXT);
    assert.equal(o.value.toolCalls[0]!.name, 'generate_image');
    assert.ok(o.withheld);
  }
  assert.equal(openValue(gone, sealed).withheld?.reason, 'FORGOTTEN');
  // Tampering is a changed byte (iv, tag or ciphertext), not a changed character: the last base64url
  // character can carry unused bits, so swapping it may leave the bytes as they were.
  const m = /^(⟦sealed:v1:[0-9a-f-]{36}:)([A-Za-z0-9_-]+)⟧$/.exec(sealed.content)!;
  const raw = Buffer.from(m[2]!, 'base64url');
  for (const at of [0, 12, 28, raw.length - 1]) {
    const bytes = Buffer.from(raw);
    bytes[at] = bytes[at]! ^ 0x01;
    const tampered = `${m[1]}${bytes.toString('base64url')}⟧`;
    assert.notEqual(tampered, sealed.content);
    assert.equal(openValue(live, { content: tampered }).value.content, WITHHELD_TEXT, `byte ${at} changed`);
  }
  // Plain text that merely looks like a marker is left as it is.
  assert.deepEqual(openValue(live, { note: '⟦sealed:v1:nonsense⟧' }).value, { note: '⟦sealed:v1:nonsense⟧' });
});

test("a person's own words stay readable; the agent's, the system's, and a person's action carrying a checklist or a work are sealed", () => {
  assert.equal(sealsEvent({ type: 'SIGNAL_RECEIVED', actor: { kind: 'USER' } }), false);
  assert.equal(sealsEvent({ type: 'APPROVAL_RESOLVED', actor: { kind: 'USER' } }), false);
  assert.equal(sealsEvent({ type: 'CHECKLIST_UPDATED', actor: { kind: 'USER' } }), true);
  assert.equal(sealsEvent({ type: 'OBJECT_UPDATED', actor: { kind: 'USER' } }), true);
  assert.equal(sealsEvent({ type: 'NOTE', actor: { kind: 'AGENT' } }), true);
  assert.equal(sealsEvent({ type: 'TASK_DELIVERED', actor: { kind: 'SYSTEM' } }), true);
  // Bookkeeping and the person's message as it arrived carry nothing from memory.
  assert.equal(sealsEvent({ type: 'MEMORY_UNAVAILABLE', actor: { kind: 'SYSTEM' } }), false);
  assert.equal(sealsEvent({ type: 'MODEL_CALL', actor: { kind: 'AGENT' } }), false);
  assert.equal(sealsEvent({ type: 'MESSAGE_RECEIVED', actor: { kind: 'SYSTEM' } }), false);
});
