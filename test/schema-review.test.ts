// The schema reviewed as an integrator reads it (the schema the server runs, deprecated input fields
// included — standard introspection hides those): every type, field, argument, enum value and input
// field says what it is; status-like fields are enums, not strings; every id is typed ID; one word
// per concept (no type offers both `title` and `name`); and every deprecated name points at what
// replaces it, which exists.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
} from 'graphql';
import { schema } from '../server/graphql/schema.ts';

/**
 * Types whose descriptions another change owns and has not written yet; the lead removes entries as
 * those changes land. Keep it explicit and small.
 */
const NOT_YET_DESCRIBED = new Set<string>([]);

const types = (): GraphQLNamedType[] => Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__') && !(isScalarType(t) && isSpecifiedScalarType(t)));

type AnyField = GraphQLField<unknown, unknown> | GraphQLInputField;
function fieldsOf(t: GraphQLNamedType): AnyField[] {
  return isObjectType(t) || isInterfaceType(t) || isInputObjectType(t) ? Object.values(t.getFields()) : [];
}
const argsOf = (f: AnyField): readonly GraphQLArgument[] => ('args' in f ? f.args : []);

describe('the schema reads as documentation', () => {
  test('every type, field, argument, enum value and input field has a description', () => {
    const missing: string[] = [];
    const said = (d: string | null | undefined) => !!d && d.trim().length > 1;
    for (const t of types()) {
      if (NOT_YET_DESCRIBED.has(t.name)) continue;
      if (!said(t.description)) missing.push(`type ${t.name}`);
      for (const f of fieldsOf(t)) {
        if (!said(f.description)) missing.push(`${t.name}.${f.name}`);
        for (const a of argsOf(f)) if (!said(a.description)) missing.push(`${t.name}.${f.name}(${a.name})`);
      }
      if (isEnumType(t)) for (const v of t.getValues()) if (!said(v.description)) missing.push(`${t.name}.${v.name}`);
    }
    assert.deepEqual(missing, []);
  });

  test('the allowance for types others describe names only types that exist', () => {
    for (const name of NOT_YET_DESCRIBED) assert.ok(schema.getType(name), `${name} is no type of the schema: remove it from NOT_YET_DESCRIBED`);
  });
});

describe('one format, one word', () => {
  /** Status-like by name: a closed set of values belongs in an enum (prose reasons are `…Reason`, `reason`). */
  const STATUS_LIKE = /^(status|kind|state|decision|role|level|safety|outcome|code|signal|requestedBy)$|[a-z](Status|Kind|State|Role|Level|Decision|Code)$/;

  test('no status-like field, argument or input field is a String', () => {
    const strings: string[] = [];
    for (const t of types()) {
      for (const f of fieldsOf(t)) {
        if (STATUS_LIKE.test(f.name) && getNamedType(f.type).name === 'String') strings.push(`${t.name}.${f.name}`);
        for (const a of argsOf(f)) if (STATUS_LIKE.test(a.name) && getNamedType(a.type).name === 'String') strings.push(`${t.name}.${f.name}(${a.name})`);
      }
    }
    assert.deepEqual(strings, []);
  });

  test('the check sees status-like fields at all (it would catch a String one)', () => {
    const seen = types().flatMap((t) => fieldsOf(t).filter((f) => STATUS_LIKE.test(f.name)).map((f) => `${t.name}.${f.name}`));
    for (const f of ['Task.status', 'Task.kind', 'GenerationJob.status', 'ToolCall.status', 'MessageDelivery.state', 'ChecklistItem.kind', 'ApprovalReason.code', 'Approval.requestedBy']) {
      assert.ok(seen.includes(f), `${f} is checked`);
    }
  });

  /**
   * Identifiers that are not ids of this API's objects, each with why: keys within their parent
   * (an option of an approval, a step of a checklist), and names of things outside the API.
   */
  const NOT_OBJECT_IDS: Record<string, string> = {
    'ApprovalOption.id': 'an option within its approval: what resolveApproval takes as choice',
    'CardOption.id': 'an option within its question (former name)',
    'AnswerCardInput.optionId': 'an option within its question',
    'CardActionInput.optionId': 'an option within its question',
    'ChecklistItem.id': 'a step within its checklist',
    'ChecklistItemInput.id': 'a step within its checklist',
    'RuntimeProcess.id': 'a process (host:pid:suffix), the name workers are known by in turns, events and logs',
    'EventActor.workerId': 'the same process name',
    'WebhookDelivery.webhookId': 'the Standard Webhooks message id a receiver sees in its webhook-id header',
  };

  test('every id — id, …Id, …Ids — is typed ID, in output and input alike', () => {
    const untyped: string[] = [];
    const idLike = (name: string) => name === 'id' || /[a-z]Ids?$/.test(name);
    for (const t of types()) {
      for (const f of fieldsOf(t)) {
        if (idLike(f.name) && getNamedType(f.type).name !== 'ID' && !NOT_OBJECT_IDS[`${t.name}.${f.name}`]) untyped.push(`${t.name}.${f.name}: ${String(f.type)}`);
        for (const a of argsOf(f)) if (idLike(a.name) && getNamedType(a.type).name !== 'ID') untyped.push(`${t.name}.${f.name}(${a.name}): ${String(a.type)}`);
      }
    }
    assert.deepEqual(untyped, []);
    for (const coord of Object.keys(NOT_OBJECT_IDS)) {
      const [type, field] = coord.split('.');
      const t = schema.getType(type!);
      assert.ok(t && fieldsOf(t).some((f) => f.name === field), `${coord} is in the schema (else drop it from NOT_OBJECT_IDS)`);
    }
  });

  test('things a person names have a title: no type offers both title and name', () => {
    const both = types().filter((t) => {
      const live = fieldsOf(t).filter((f) => !f.deprecationReason).map((f) => f.name);
      return live.includes('title') && live.includes('name');
    });
    assert.deepEqual(both.map((t) => t.name), []);
    for (const t of ['Task', 'WorkspaceObject', 'ObjectVersion', 'ForgetWork', 'Approval', 'ChecklistItem', 'CreateObjectInput', 'UpdateObjectInput']) {
      assert.ok(fieldsOf(schema.getType(t)!).some((f) => f.name === 'title' && !f.deprecationReason), `${t}.title`);
    }
  });

  test('every deprecated name says what replaces it, and that exists', () => {
    const bad: string[] = [];
    const mutation = schema.getMutationType()!.getFields();
    const check = (where: string, reason: string | null | undefined, siblings: string[]) => {
      const m = /^Use `?(\w+)/.exec(reason ?? '');
      if (!m) return bad.push(`${where}: "${reason}" does not start with "Use …" (what replaces it)`);
      // "Use title.", "Use approval { id }.", "Use resolveApproval (…)": the name must exist. ("Use the
      // typed fields of …" describes its replacement in words.)
      if (['the', 'a', 'an'].includes(m[1]!)) return;
      if (!siblings.includes(m[1]!) && !mutation[m[1]!]) bad.push(`${where}: ${m[1]} does not exist`);
    };
    let deprecated = 0;
    for (const t of types()) {
      const names = fieldsOf(t).map((f) => f.name);
      for (const f of fieldsOf(t)) {
        if (f.deprecationReason) (deprecated++, check(`${t.name}.${f.name}`, f.deprecationReason, names));
        for (const a of argsOf(f)) if (a.deprecationReason) (deprecated++, check(`${t.name}.${f.name}(${a.name})`, a.deprecationReason, argsOf(f).map((x) => x.name)));
      }
      if (isEnumType(t)) for (const v of t.getValues()) if (v.deprecationReason) (deprecated++, check(`${t.name}.${v.name}`, v.deprecationReason, t.getValues().map((x) => x.name)));
    }
    assert.ok(deprecated >= 5, `${deprecated} deprecated names checked`);
    assert.deepEqual(bad, []);
  });
});
