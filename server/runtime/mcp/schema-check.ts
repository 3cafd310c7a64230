// JSON-schema checks of MCP tool input (before a call is sent) and structured output (after), with
// ajv. Schemas come from the pin, so each is compiled once per process and kept.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

// strict off: servers write schemas for many validators (unknown keywords, draft 2020-12 markers);
// an unknown keyword is ignored rather than failing every call of the tool.
const ajv = addFormats(new Ajv({ strict: false, allErrors: true, validateSchema: false }));
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>, key: string): ValidateFunction | null {
  let v = compiled.get(key);
  if (!v) {
    const { $schema: _ignored, ...rest } = schema;
    try {
      v = ajv.compile(rest);
    } catch {
      return null;
    }
    compiled.set(key, v);
  }
  return v;
}

/** The problems of `value` against `schema`, as short sentences; empty when it conforms. `key` names the schema (its pin hash). */
export function schemaProblems(schema: Record<string, unknown>, key: string, value: unknown): string[] {
  const v = validatorFor(schema, key);
  if (!v) return ['the tool\'s schema cannot be checked'];
  if (v(value)) return [];
  return (v.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || 'input'} ${e.message ?? 'is invalid'}`.trim());
}
