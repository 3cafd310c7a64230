// The tool registry: lookup, validation at the boundary (zod), and output size caps. Outputs are
// handed to the model as data inside a tool message, never as instructions.
import { z } from 'zod';
import { encodePayload } from '../../channel/payload.ts';
import { storePayload } from '../../store/journal/events.ts';
import type { ToolContext, ToolDef } from './types.ts';

/** Tool outputs above this size (bytes of canonical JSON) are stored by reference. */
export const MAX_TOOL_OUTPUT_CHARS = 16_000;

export class ToolInputInvalid extends Error {
  constructor(
    readonly tool: string,
    readonly issues: string,
  ) {
    super(`invalid input for ${tool}: ${issues}`);
    this.name = 'ToolInputInvalid';
  }
}

type ModelTool = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } };

// Converted once per definition and kept, shared by every registry holding it (a step's registry
// with a workspace's MCP tools is a new registry around the same definitions).
const converted = new WeakMap<ToolDef, ModelTool>();

export class ToolRegistry {
  private readonly tools = new Map<string, ToolDef>();

  constructor(defs: ToolDef[] = []) {
    for (const d of defs) this.register(d);
  }

  register(def: ToolDef): this {
    if (this.tools.has(def.name)) throw new Error(`tool ${def.name} registered twice`);
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(def.name)) throw new Error(`bad tool name ${def.name}`);
    this.tools.set(def.name, def);
    return this;
  }

  /**
   * This registry plus `extra` (a workspace's MCP tools for one step). A name already registered
   * keeps its built-in tool: an outside server cannot shadow one.
   */
  with(extra: readonly ToolDef[]): ToolRegistry {
    if (!extra.length) return this;
    const merged = new ToolRegistry(this.list());
    for (const d of extra) if (!merged.tools.has(d.name)) merged.register(d);
    return merged;
  }

  get(name: string): ToolDef | undefined {
    return this.tools.get(name);
  }

  list(): ToolDef[] {
    return [...this.tools.values()];
  }

  /** Tool definitions in the form LangChain's bindTools accepts (JSON schema from zod). */
  forModel(): ModelTool[] {
    // Converted once per tool and kept: a definition never changes after it is registered, and the
    // conversion ran on every step (a few ms of CPU each time).
    return this.list().map((t) => {
      let m = converted.get(t);
      if (!m) converted.set(t, (m = { type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.jsonSchema ?? (z.toJSONSchema(t.input) as Record<string, unknown>) } }));
      return m;
    });
  }

  parseInput(def: ToolDef, raw: unknown): unknown {
    const r = def.input.safeParse(raw);
    if (!r.success) throw new ToolInputInvalid(def.name, r.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
    return r.data;
  }

  /**
   * Runs a tool with validated input and output. An output larger than MAX_TOOL_OUTPUT_CHARS is
   * stored once by content hash (like large event payloads) and the call's result becomes a
   * reference with a preview, so the journal and the model context stay small.
   */
  async run(def: ToolDef, input: unknown, ctx: ToolContext): Promise<unknown> {
    const parsed = this.parseInput(def, input);
    const out = await def.run(parsed as never, ctx);
    const checked = def.output.safeParse(out);
    if (!checked.success) {
      throw new ToolOutputInvalid(def.name, checked.error.issues.map((i) => `${i.path.join('.') || 'output'}: ${i.message}`).join('; '));
    }
    const enc = encodePayload(checked.data, MAX_TOOL_OUTPUT_CHARS);
    if (enc.inline) return checked.data;
    await storePayload(ctx.uow.prisma, { hash: enc.hash, size: enc.size, schema: `tool.${def.name}.output/v1`, json: enc.json });
    return { truncated: true, ref: { hash: enc.hash, size: enc.size }, preview: enc.json.slice(0, 2000) };
  }
}

export class ToolOutputInvalid extends Error {
  constructor(
    readonly tool: string,
    readonly issues: string,
  ) {
    super(`${tool} returned an invalid result: ${issues}`);
    this.name = 'ToolOutputInvalid';
  }
}
