import { builder } from '../builder.ts';

export const EditFlowInput = builder.inputType('EditFlowInput', {
  description: 'Node operations on a flow; a conflict only where the same node changed since its base version.',
  fields: (t) => ({
    objectId: t.id({ required: true, description: 'The flow (WorkspaceObject.id).' }),
    baseVersion: t.int({ required: false, description: 'Default base version for ops that carry none.' }),
    ops: t.field({
      type: ['JSON'],
      required: true,
      description:
        '{ op: "add_node", node } | { op: "update_node", nodeId, baseVersion?, kind?, params?, inputs? } | { op: "remove_node", nodeId, baseVersion? } | { op: "add_edge" | "remove_edge", edge: { from, to, port? } }',
    }),
    idempotencyKey: t.string({ required: false, description: 'Retrying with the same key returns the version written the first time.' }),
  }),
});
