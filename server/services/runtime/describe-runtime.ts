// Which runtime serves the API: the models, the agent's tools and the router's embedding model.
import type { Viewer } from '../../auth/viewer.ts';
import type { ModelInfo } from '../../runtime/models/types.ts';
import type { ProcessRow } from '../../store/processes.ts';
import type { Deps } from '../deps.ts';

export type { ModelInfo, ProcessRow };
export type RuntimeInfo = { model: ModelInfo; tools: string[]; embeddingModel: string | null };

export function describeRuntime(deps: Deps, _viewer: Viewer): RuntimeInfo {
  return {
    model: deps.runtime.models.info,
    tools: deps.runtime.tools.list().map((x) => x.name),
    embeddingModel: deps.embedder?.model ?? null,
  };
}
