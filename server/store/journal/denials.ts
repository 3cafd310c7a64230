// How often the policy refused a tool in a task: the runtime escalates to a person when the model
// tries a refused tool again (runtime/escalation.ts). Read in the refusal's own transaction, under
// the task row's lock (the fence), so two refusals cannot both count themselves first.
// TOOL_CALL_DENIED payloads are never sealed (domain/sealing.ts): the tool's name is readable here.
import { rawQuery, type Tx } from '../../db/client.ts';

export async function countToolDenials(tx: Tx, workspaceId: string, taskId: string, tool: string): Promise<number> {
  const rows = await rawQuery<{ n: number }>(
    tx,
    `SELECT count(*)::int AS n FROM task_events WHERE workspace_id = $1::uuid AND task_id = $2::uuid AND type = 'TOOL_CALL_DENIED' AND payload->>'tool' = $3`,
    [workspaceId, taskId, tool],
  );
  return rows[0]?.n ?? 0;
}
