// A document an agent wrote as a step's result (create_document with checklistItemId): linked to the
// step like a generated result, in the transaction that created it, so steps after it record it as
// what they were made from (object derivations) and a person's later edit of it reaches them.
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import { linkArtifact } from '../../domain/checklist.ts';
import { writeChecklist } from './write-checklist.ts';

/** Invariant: links once (a replayed call finds the artifact linked and writes no version); an unknown step is no error. */
export async function linkDocumentToStep(tx: Tx, emit: Emit, taskId: string, itemId: string, objectId: string): Promise<void> {
  await writeChecklist(tx, emit, { taskId, actor: { kind: 'AGENT' }, reason: `result of step ${itemId}` }, (items) => {
    const item = items.find((i) => i.id === itemId);
    return item ? linkArtifact(items, itemId, `object:${objectId}`, item.evidence ?? 'written', item.round) : items;
  });
}
