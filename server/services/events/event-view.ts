// How the API shows a stored event: its row type and the opaque workspace cursor that resumes a
// feed right after it.
import { encodeWorkspaceCursor } from '../../channel/cursor.ts';
import type { EventRow } from '../../channel/types.ts';

export type { EventRow };

export const cursorOfEvent = (e: Pick<EventRow, 'workspaceId' | 'position'>): string => encodeWorkspaceCursor(e.workspaceId, e.position);
