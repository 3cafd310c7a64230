// Captures the SQL this process sends through `pg` and checks each statement against the workspace
// scoping rule (test/workspace-scoping.test.ts).
//
// Capture: like test/bench/runtime/sql-counter.ts, by wrapping pg.Client.prototype.query — Prisma's
// driver adapter, the raw pool (`rawQuery`), the LISTEN connection and pg-boss all end there — so it
// sees exactly this process's statements, not other tests' on the same server (which
// pg_stat_statements would mix in, and which needs shared_preload_libraries anyway).
//
// The rule, per query block (a statement, or a parenthesised SELECT/WITH/UPDATE/INSERT/DELETE inside
// it, split again at UNION/INTERSECT/EXCEPT): a block that reads, updates or deletes rows of a
// workspace-scoped table must carry, in its WHERE, a predicate `key = …`, `key IN (…)` or
// `key = ANY(…)` where `key` is a column whose value belongs to exactly one workspace
// (workspace_id, or the id of a workspace-scoped row: task_id, object_id, …). The right-hand side
// must be a parameter, a literal, a list or array of them, or — in a nested block only — a column of
// an enclosing block (a correlated subquery, constrained by the outer row). A predicate under an OR
// does not count (`id = $1 OR true` constrains nothing). INSERT … VALUES writes rows that carry their
// own key, so an insert target needs no WHERE; the SELECT of an INSERT … SELECT is checked like any
// block. A call of one of Atelier's SQL functions (atelier_*) counts as touching the tables it works
// on with no constraint the capture can see, so every such call must be allow-listed.
//
// Deliberate simplifications (a light tokenizer, not a SQL parser): one key predicate constrains the
// whole block (joins are assumed to follow keys, which is what every join in the store layer does);
// a key predicate qualified by a global table's name or alias (users.id = $1) does not count.
import pg from 'pg';

export type Captured = { text: string; pgBoss: boolean };

let installed = false;
const sinks = new Set<Captured[]>();

/** Wraps pg.Client.prototype.query once per process; statements go to every open capture. */
export function installSqlCapture(): void {
  if (installed) return;
  installed = true;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: object, ...args: unknown[]) {
    if (sinks.size > 0) {
      const q = args[0];
      const text = typeof q === 'string' ? q : typeof (q as { text?: unknown })?.text === 'string' ? (q as { text: string }).text : '';
      const params = (this as { connectionParameters?: { application_name?: string } }).connectionParameters;
      // pg-boss's own pool (server/store/scheduler.ts names it); its sends inside Atelier's
      // transactions go through Atelier's connection and are recognised by their schema instead.
      const rec = { text, pgBoss: params?.application_name === 'atelier-scheduler' };
      for (const s of sinks) s.push(rec);
    }
    return original.apply(this, args);
  };
}

/** Starts recording; `stop()` ends it and returns what was sent meanwhile. */
export function startCapture(): { statements: Captured[]; stop(): Captured[] } {
  installSqlCapture();
  const statements: Captured[] = [];
  sinks.add(statements);
  return { statements, stop: () => (sinks.delete(statements), statements) };
}

// ---- tokenizer ----

type Tok = { k: 'id' | 'qid' | 'str' | 'num' | 'param' | 'op' | '(' | ')' | ','; v: string };

export function tokenize(sql: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '-' && sql[i + 1] === '-') { while (i < n && sql[i] !== '\n') i++; continue; }
    if (c === '/' && sql[i + 1] === '*') { const e = sql.indexOf('*/', i + 2); i = e < 0 ? n : e + 2; continue; }
    if (c === "'" || ((c === 'E' || c === 'e') && sql[i + 1] === "'")) {
      let j = c === "'" ? i + 1 : i + 2;
      for (; j < n; j++) {
        if (sql[j] === '\\' && c !== "'") { j++; continue; }
        if (sql[j] === "'") { if (sql[j + 1] === "'") { j++; continue; } break; }
      }
      out.push({ k: 'str', v: "'…'" });
      i = j + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let v = '';
      for (; j < n; j++) {
        if (sql[j] === '"') { if (sql[j + 1] === '"') { v += '"'; j++; continue; } break; }
        v += sql[j];
      }
      out.push({ k: 'qid', v });
      i = j + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$(\d+)/.exec(sql.slice(i, i + 12));
      if (m) { out.push({ k: 'param', v: m[0] }); i += m[0].length; continue; }
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
      if (tag) { const e = sql.indexOf(tag[0], i + tag[0].length); out.push({ k: 'str', v: '$$…$$' }); i = e < 0 ? n : e + tag[0].length; continue; }
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      out.push({ k: 'id', v: sql.slice(i, j).toLowerCase() });
      i = j;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i + 1;
      while (j < n && /[0-9.eE]/.test(sql[j]!)) j++;
      out.push({ k: 'num', v: sql.slice(i, j) });
      i = j;
      continue;
    }
    if (c === '(' || c === ')' || c === ',') { out.push({ k: c, v: c }); i++; continue; }
    if (c === ':' && sql[i + 1] === ':') { out.push({ k: 'op', v: '::' }); i += 2; continue; }
    const op = /^(<>|!=|<=|>=|\|\||->>|->|#>>|#>|@>|<@|&&|[=<>+\-*/%.;:\[\]!|&^~@#?])/.exec(sql.slice(i, i + 3));
    out.push({ k: 'op', v: op ? op[0] : c });
    i += op ? op[0].length : 1;
  }
  return out;
}

// ---- analysis ----

export type ScopingModel = {
  /** Tables whose rows belong to one workspace (public schema names). */
  scopedTables: ReadonlySet<string>;
  /** Columns whose value belongs to exactly one workspace. */
  keyColumns: ReadonlySet<string>;
  /** Tables that are global by design (a key predicate qualified by them does not count). */
  globalTables: ReadonlySet<string>;
};

export type Finding = {
  /** Workspace-scoped tables some block of the statement touches without a workspace key. */
  tables: string[];
  /** Atelier SQL functions the statement calls (their tables are invisible to the capture). */
  functions: string[];
};

/** A parenthesised group of a WHERE: its OR-separated disjuncts, each keyed or not. */
type Frame = { disjuncts: boolean[] };
type Block = {
  parent: Block | null;
  closeDepth: number;
  clause: 'start' | 'select' | 'from' | 'where' | 'other' | 'set' | 'into' | 'update';
  expectTable: boolean;
  /** The block's statement kind (its first keyword), for INSERT targets. */
  kind: string;
  tables: Set<string>;
  aliases: Map<string, string>;
  lastTable: string | null;
  groupDepth: number;
  frames: Frame[];
  /** The WHERE's outermost group: keyed when every disjunct is. */
  where: Frame | null;
  /** Opened where a table was expected: a derived table, whose alias binds like a CTE's name. */
  derived: boolean;
  /** Inside a JOIN's ON condition. */
  onCond: boolean;
  /** A JOIN … ON compares a key with a parameter, a literal or a CTE's (derived table's) column. */
  joinKeyed: boolean;
};

const NEW_BLOCK = new Set(['select', 'with', 'update', 'insert', 'delete', 'values']);
const SET_OPS = new Set(['union', 'intersect', 'except']);
const CLAUSE_END = new Set(['group', 'order', 'limit', 'offset', 'having', 'returning', 'window', 'for', 'fetch', 'on']);
const NOT_ALIAS = new Set(['where', 'join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'lateral', 'on', 'using', 'group', 'order', 'limit', 'offset', 'having', 'returning', 'for', 'set', 'union', 'intersect', 'except', 'window', 'fetch', 'values', 'select', 'default', 'as', 'tablesample', 'only']);

/** Table name of a (possibly schema-qualified) reference, null when in another schema than public. */
function publicName(parts: string[]): string | null {
  if (parts.length === 1) return parts[0]!;
  if (parts.length === 2 && parts[0] === 'public') return parts[1]!;
  return null;
}

function markKeyed(b: Block) {
  const f = b.frames[b.frames.length - 1];
  if (f) f.disjuncts[f.disjuncts.length - 1] = true;
}

export function analyze(sql: string, model: ScopingModel): Finding {
  const toks = tokenize(sql);
  // Names of the statement's CTEs (`name AS [NOT] [MATERIALIZED] (`): a key compared with a CTE's
  // column is bound by that CTE, whose own block is judged by itself.
  const ctes = new Set<string>();
  for (let i = 0; i + 2 < toks.length; i++) {
    if (toks[i]!.k !== 'id' || toks[i + 1]!.v !== 'as') continue;
    let j = i + 2;
    while (toks[j]?.v === 'not' || toks[j]?.v === 'materialized') j++;
    if (toks[j]?.k === '(' && toks[j + 1]?.k === 'id' && NEW_BLOCK.has(toks[j + 1]!.v)) ctes.add(toks[i]!.v);
  }
  const unscoped = new Set<string>();
  const functions = new Set<string>();
  let depth = 0;
  const mk = (parent: Block | null, closeDepth: number): Block => ({
    parent, closeDepth, clause: 'start', expectTable: false, kind: '', tables: new Set(), aliases: new Map(), lastTable: null, groupDepth: 0, frames: [], where: null, derived: false, onCond: false, joinKeyed: false,
  });
  const finish = (b: Block) => {
    const constrained = b.joinKeyed || (b.where !== null && b.where.disjuncts.every(Boolean));
    if (!constrained) for (const t of b.tables) if (model.scopedTables.has(t)) unscoped.add(t);
  };
  let b = mk(null, -1);
  const blockStack: Block[] = [];
  const groupCloses: number[] = [];

  const readName = (i: number): { parts: string[]; next: number } => {
    const parts: string[] = [];
    let j = i;
    while (j < toks.length && (toks[j]!.k === 'id' || toks[j]!.k === 'qid')) {
      parts.push(toks[j]!.v);
      if (toks[j + 1]?.k === 'op' && toks[j + 1]!.v === '.') j += 2;
      else { j++; break; }
    }
    return { parts, next: j };
  };
  const isKeyRef = (parts: string[], blk: Block) => {
    const col = parts[parts.length - 1]!;
    if (!model.keyColumns.has(col)) return false;
    if (parts.length >= 2) {
      const q = parts[parts.length - 2]!;
      let table: string | undefined;
      for (let x: Block | null = blk; x && !table; x = x.parent) table = x.aliases.get(q);
      if (model.globalTables.has(table ?? q)) return false;
    }
    return true;
  };
  // The right-hand side of `key = …` / `key IN …`: a parameter, literal, ANY(…), a list, or (nested
  // blocks only) another column.
  const rhsConstrains = (i: number, blk: Block): boolean => {
    const t = toks[i];
    if (!t) return false;
    if (t.k === 'param' || t.k === 'str' || t.k === 'num' || t.k === '(') return true;
    if (t.k === 'id' && (t.v === 'any' || t.v === 'array')) return true;
    if ((t.k === 'id' || t.k === 'qid') && blk.parent) return true;
    if (t.k === 'id' || t.k === 'qid') {
      const { parts } = readName(i);
      if (parts.length >= 2) {
        const q = parts[parts.length - 2]!;
        if (ctes.has(blk.aliases.get(q) ?? q)) return true;
      }
    }
    return false;
  };

  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.k === '(') {
      depth++;
      const nx = toks[i + 1];
      if (nx?.k === 'id' && NEW_BLOCK.has(nx.v) && !(nx.v === 'values' && b.kind === 'insert')) {
        const derived = b.clause === 'from' && b.expectTable;
        blockStack.push(b);
        b = mk(b, depth);
        b.derived = derived;
      } else {
        b.groupDepth++;
        if (b.clause === 'where') b.frames.push({ disjuncts: [false] });
        groupCloses.push(depth);
        b.expectTable = false;
      }
      continue;
    }
    if (t.k === ')') {
      if (b.closeDepth === depth) {
        finish(b);
        if (b.derived) {
          let j = i + 1;
          if (toks[j]?.v === 'as') j++;
          const al = toks[j];
          if (al && (al.k === 'qid' || (al.k === 'id' && !NOT_ALIAS.has(al.v)))) ctes.add(al.v);
        }
        b = blockStack.pop()!;
        b.expectTable = false;
      } else if (groupCloses.length && groupCloses[groupCloses.length - 1] === depth) {
        groupCloses.pop();
        b.groupDepth--;
        if (b.clause === 'where' && b.frames.length > 1) {
          // A group is a key of its enclosing term when each of its disjuncts is: (a.id = $1 OR a.id = $2).
          const g = b.frames.pop()!;
          if (g.disjuncts.every(Boolean)) markKeyed(b);
        }
      }
      depth--;
      continue;
    }
    if (t.k === ',') {
      if (b.clause === 'from' && b.groupDepth === 0) b.expectTable = true;
      continue;
    }
    if (t.k === 'id' || t.k === 'qid') {
      const w = t.k === 'id' ? t.v : '';
      // Function calls: Atelier's own SQL functions are recorded.
      if (t.k === 'id' && toks[i + 1]?.k === '(' && t.v.startsWith('atelier_')) functions.add(t.v);
      if (b.groupDepth === 0 && w) {
        if (b.clause === 'start' && !b.kind) b.kind = w;
        // WITH … INSERT / DELETE: the statement's verb comes after its CTEs.
        if (b.clause === 'start' && (w === 'insert' || w === 'delete')) b.kind = w;
        if (SET_OPS.has(w)) {
          finish(b);
          const nb = mk(b.parent, b.closeDepth);
          b = nb;
          continue;
        }
        if (w === 'select') { b.clause = 'select'; b.expectTable = false; continue; }
        if (w === 'from' || w === 'join' || w === 'using') {
          // DELETE … USING, SELECT … FROM, … JOIN: a table (or a subquery) follows.
          if (w === 'using' && b.clause !== 'from') { b.expectTable = false; continue; }
          b.clause = 'from'; b.expectTable = true; b.onCond = false; continue;
        }
        if (w === 'where') {
          // A second WHERE of the block (ON CONFLICT … WHERE, DO UPDATE … WHERE) is about the
          // conflict, not about the rows read: it neither keys nor un-keys the block.
          if (b.where) b.frames = [{ disjuncts: [false] }];
          else { b.where = { disjuncts: [false] }; b.frames = [b.where]; }
          b.clause = 'where'; b.onCond = false; b.expectTable = false; continue;
        }
        if (w === 'into' && b.kind === 'insert') { b.clause = 'into'; b.expectTable = true; continue; }
        if (w === 'update' && b.clause === 'start') { b.clause = 'update'; b.expectTable = true; continue; }
        if (w === 'update') { b.expectTable = false; continue; } // FOR UPDATE, DO UPDATE
        if (w === 'set' && b.clause === 'update') { b.clause = 'set'; b.expectTable = false; continue; }
        if (w === 'on' && b.clause === 'from') { b.onCond = true; continue; }
        if (CLAUSE_END.has(w)) { b.clause = 'other'; b.onCond = false; b.expectTable = false; continue; }
      }
      if (w === 'lateral' || w === 'only') continue;
      if (b.expectTable) {
        const { parts, next } = readName(i);
        b.expectTable = false;
        if (toks[next]?.k === '(') { i = next - 1; continue; } // a set-returning function, not a table
        // A CTE's name is not a table, even when it is spelt like one (WITH steps AS (…)).
        const name = parts.length === 1 && ctes.has(parts[0]!) ? null : publicName(parts);
        if (name) {
          b.lastTable = name;
          // The target of INSERT INTO writes rows carrying their own key: no WHERE needed.
          if (b.clause !== 'into') b.tables.add(name);
          b.aliases.set(name, name);
          let j = next;
          if (toks[j]?.k === 'id' && toks[j]!.v === 'as') j++;
          const al = toks[j];
          if (al && (al.k === 'qid' || (al.k === 'id' && !NOT_ALIAS.has(al.v)))) { b.aliases.set(al.v, name); j++; }
          i = j - 1;
        } else i = next - 1;
        continue;
      }
      if (b.clause === 'from' && b.onCond) {
        // JOIN … ON key = $1 / = a CTE's column: stricter than WHERE, since a join between two
        // tables (u.task_id = t.id) constrains neither.
        const { parts, next } = readName(i);
        if (parts.length > 0 && toks[next]?.k !== '(' && isKeyRef(parts, b)) {
          let j = next;
          if (toks[j]?.v === '::') j += 2;
          const r = toks[j + 1];
          if (toks[j]?.v === '=' && r) {
            if (r.k === 'param' || r.k === 'str' || r.k === 'num') b.joinKeyed = true;
            else if (r.k === 'id' || r.k === 'qid') {
              const rp = readName(j + 1).parts;
              if (rp.length >= 2 && ctes.has(rp[rp.length - 2]!)) b.joinKeyed = true;
            }
          }
        }
        i = Math.max(i, next - 1);
        continue;
      }
      if (b.clause === 'where') {
        if (w === 'or') { b.frames[b.frames.length - 1]!.disjuncts.push(false); continue; }
        const { parts, next } = readName(i);
        if (parts.length > 0 && toks[next]?.k !== '(' && isKeyRef(parts, b)) {
          let j = next;
          if (toks[j]?.k === 'op' && toks[j]!.v === '::') j += 2; // key::text = …
          const op = toks[j];
          if (op && ((op.k === 'op' && op.v === '=') || (op.k === 'id' && op.v === 'in')) && rhsConstrains(j + 1, b)) markKeyed(b);
        }
        // `$1 = key`: the parameter on the left.
        i = Math.max(i, next - 1);
        continue;
      }
      continue;
    }
    if (t.k === 'param' && b.clause === 'where' && toks[i + 1]?.k === 'op' && toks[i + 1]!.v === '=') {
      const { parts } = readName(i + 2);
      if (parts.length > 0 && isKeyRef(parts, b)) markKeyed(b);
    }
    // `1=0` (Prisma's query for an empty list) matches nothing, in any workspace.
    if (t.k === 'num' && t.v === '1' && b.clause === 'where' && toks[i + 1]?.v === '=' && toks[i + 2]?.k === 'num' && toks[i + 2]!.v === '0') markKeyed(b);
  }
  finish(b);
  while (blockStack.length) finish(blockStack.pop()!);
  return { tables: [...unscoped].sort(), functions: [...functions].sort() };
}

/** Whitespace collapsed, for reports and allow-list patterns. */
export const normalizeSql = (sql: string) => sql.replace(/\s+/g, ' ').trim();
