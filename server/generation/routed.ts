// A provider that routes requests by kind: e.g. images to OpenAI, everything else to the simulated
// provider, so video/audio/3D tools keep working when only an image provider is configured.
// The jobs layer knows one provider name per process (job rows and reconciliation are keyed by it),
// so this presents one name and routes `status`/`cancel` by the upstream id, which each provider
// prefixes distinctly (`oai_img_…`, `sim_…`).
import { isGenerationKind } from '../domain/generation.ts';
import type { CallbackReceiver, GenerationKind, GenerationProvider, GenerationRequest, ProviderUpdate } from './types.ts';

export class RoutedProvider implements GenerationProvider {
  readonly name: string;
  private readonly all: GenerationProvider[];

  constructor(
    private readonly routes: Partial<Record<GenerationKind, { provider: GenerationProvider; idPrefix: string }>>,
    private readonly fallback: GenerationProvider,
  ) {
    const routed = Object.values(routes).map((r) => r!.provider);
    this.all = [...new Set([...routed, fallback])];
    this.name = this.all.map((p) => p.name).join('+');
  }

  /**
   * A kind outside GenerationKind is refused here rather than handed to the fallback: the composite
   * offers the kinds, and a fallback that took anything would otherwise make (and charge) a job of it.
   */
  private forKind(kind: GenerationKind) {
    if (!isGenerationKind(kind)) throw new Error(`the provider does not offer ${String(kind)}`);
    return this.routes[kind]?.provider ?? this.fallback;
  }

  private forId(upstreamJobId: string) {
    for (const r of Object.values(this.routes)) if (upstreamJobId.startsWith(r!.idPrefix)) return r!.provider;
    return this.fallback;
  }

  // Async so a refusal is a rejected promise, as from every other provider, not a synchronous throw.
  async quote(req: GenerationRequest) {
    return await this.forKind(req.kind).quote(req);
  }

  async submit(req: GenerationRequest) {
    return await this.forKind(req.kind).submit(req);
  }

  status(upstreamJobId: string): Promise<ProviderUpdate> {
    return this.forId(upstreamJobId).status(upstreamJobId);
  }

  async lookup(idempotencyKey: string) {
    for (const p of this.all) {
      const found = p.lookup ? await p.lookup(idempotencyKey) : null;
      if (found) return found;
    }
    return null;
  }

  async cancel(upstreamJobId: string) {
    return await this.forId(upstreamJobId).cancel?.(upstreamJobId);
  }

  callbackReceiver(name: string): CallbackReceiver | undefined {
    for (const p of this.all) {
      const r = p.callbackReceiver?.(name);
      if (r) return r;
    }
    return undefined;
  }

  useCallbackBase(baseUrl: string) {
    for (const p of this.all) p.useCallbackBase?.(baseUrl);
  }

  onUpdate(listener: (u: ProviderUpdate) => void): () => void {
    const stops = this.all.map((p) => p.onUpdate(listener));
    return () => stops.forEach((s) => s());
  }

  close() {
    for (const p of this.all) (p as { close?: () => void }).close?.();
  }
}
