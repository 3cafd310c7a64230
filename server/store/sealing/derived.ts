// What forgetting rebuilds besides destroying keys: the derived indexes and summaries of the tasks
// whose keys were destroyed. Invariants after `rebuildDerivedOf`:
//  - a task's summary (model-written while memory was in its context) reads as the withheld marker,
//    so the router's generated search_text / search_tsv and trigram index hold no forgotten value;
//  - its embedding (computed from that text) is gone; the router re-embeds the new text;
//  - its snapshots (folds of sealed payloads, kept sealed) are dropped: the next fold is rebuilt
//    from the log, reading withheld parts as the marker.
import type { Tx } from '../../db/client.ts';
import { WITHHELD_TEXT } from '../../domain/sealing.ts';

export async function rebuildDerivedOf(tx: Tx, taskIds: string[]): Promise<void> {
  if (!taskIds.length) return;
  await tx.$executeRawUnsafe(`UPDATE tasks SET summary = $2 WHERE id = ANY($1::uuid[]) AND summary <> '' AND summary <> $2`, taskIds, WITHHELD_TEXT);
  await tx.$executeRawUnsafe(`DELETE FROM task_embeddings WHERE task_id = ANY($1::uuid[])`, taskIds);
  await tx.$executeRawUnsafe(`DELETE FROM task_snapshots WHERE task_id = ANY($1::uuid[])`, taskIds);
}
