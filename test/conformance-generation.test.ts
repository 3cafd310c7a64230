// The generation provider contract (test/conformance/generation-provider.spec.ts) run against every
// implementation, each real: the in-process simulation, the HTTP client of the provider service in
// its own process (calling back over HTTP), the OpenAI images provider through the real SDK against
// a local OpenAI-compatible server, and the routed composite the app builds from the last two kinds.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { HttpGenerationProvider } from '../server/generation/http-provider.ts';
import { OpenAIImagesProvider } from '../server/generation/openai-images.ts';
import { RoutedProvider } from '../server/generation/routed.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import type { GenerationKind } from '../server/generation/types.ts';
import { generationProviderConformance, type Refusal, type RequestShape } from './conformance/generation-provider.spec.ts';
import { startOpenAIStub } from './helpers/openai-stub.ts';
import { startCallbackEndpoint, startProviderProcess } from './helpers/provider-process.ts';

const root = mkdtempSync(join(tmpdir(), 'atelier-conformance-gen-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Finished jobs come quickly; VIDEO is the one kept slow enough to cancel while it runs. */
const FAST_MS = 300;
const SLOW_MS = 2500;
const LATENCY: Record<GenerationKind, number> = { IMAGE: FAST_MS, AUDIO: FAST_MS, MODEL_3D: FAST_MS, VIDEO: SLOW_MS };

const shape = (kind: GenerationKind, prompt: string, params: Record<string, unknown> = {}): RequestShape => ({ kind, prompt, params });
/** A kind outside GenerationKind, as a caller that skipped validation would send it. */
const HOLOGRAM = 'HOLOGRAM' as GenerationKind;
/** A kind named like an object built-in: a price table read by key must not find it. */
const BUILTIN = 'constructor' as GenerationKind;

// The simulation's requests: every kind it offers; VIDEO is the slow one.
const simAccepted = (['IMAGE', 'AUDIO', 'MODEL_3D'] as const).map((kind) => ({ label: kind, req: shape(kind, `conformance ${kind.toLowerCase()}`) }));
const simSlow = [{ label: 'VIDEO', req: shape('VIDEO', 'conformance video'), wouldFinishMs: SLOW_MS }];

/** Jobs the in-process simulation holds (its engine is private: read for counting only). */
const simJobs = (p: SimulatedProvider) => (p as unknown as { engine: { size: number } }).engine.size;

// The OpenAI stub answers images after 100 ms; a prompt with "slow" after SLOW_MS (to cancel it).
async function openAIStub() {
  return startOpenAIStub(() => ({ role: 'assistant', content: 'unused' }), {
    images: (b) => (b.prompt.includes('slow') ? { delayMs: SLOW_MS } : {}),
    imageDelayMs: 100,
  });
}
const openAIAccepted = [
  { label: 'IMAGE', req: shape('IMAGE', 'conformance image') },
  { label: 'IMAGE 1536x1024 high', req: shape('IMAGE', 'conformance wide image', { size: '1536x1024', quality: 'high' }) },
];
const openAISlow = { label: 'IMAGE', req: shape('IMAGE', 'conformance slow image'), wouldFinishMs: SLOW_MS };
const openAIRefused: Refusal[] = [
  { label: 'VIDEO (images only)', req: shape('VIDEO', 'waves'), quote: /images only, not VIDEO/, submit: /images only, not VIDEO/ },
  { label: 'an image size it does not make', req: shape('IMAGE', 'tiny', { size: '64x64' }), quote: /size/, submit: /size/ },
];

generationProviderConformance('SimulatedProvider (in process)', { callbacks: true, cancel: true, lookup: true, refuses: true }, async () => {
  const provider = new SimulatedProvider({ filesDir: join(root, 'sim'), latencyMs: LATENCY });
  return {
    provider,
    accepted: simAccepted,
    slow: simSlow,
    refused: [
      { label: 'a kind outside GenerationKind', req: shape(HOLOGRAM, 'a hologram'), quote: /does not offer HOLOGRAM/, submit: /does not offer HOLOGRAM/ },
      { label: 'a kind named like an object built-in', req: shape(BUILTIN, 'a builtin'), quote: /does not offer constructor/, submit: /does not offer constructor/ },
    ],
    upstreamJobs: () => simJobs(provider),
    close: async () => provider.close(),
  };
});

generationProviderConformance('HttpGenerationProvider (provider service in its own process)', { callbacks: true, cancel: true, lookup: true, refuses: true }, async () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const service = await startProviderProcess({
    dataDir: join(root, 'service'),
    secret,
    env: { ATELIER_SIM_LATENCY_MS: Object.entries(LATENCY).map(([k, v]) => `${k}=${v}`).join(',') },
  });
  const provider = new HttpGenerationProvider({ baseUrl: service.url, secret, filesDir: join(root, 'http-files') });
  // The app's hook route, reduced to what the client needs: deliveries handed to its receiver.
  const endpoint = await startCallbackEndpoint(provider);
  provider.useCallbackBase(endpoint.url);
  return {
    provider,
    accepted: simAccepted,
    slow: simSlow,
    refused: [
      { label: 'a kind outside GenerationKind', req: shape(HOLOGRAM, 'a hologram'), quote: /does not offer HOLOGRAM/, submit: /refused the submission \(400\).*kind/ },
      { label: 'a kind named like an object built-in', req: shape(BUILTIN, 'a builtin'), quote: /does not offer constructor/, submit: /refused the submission \(400\).*kind/ },
    ],
    upstreamJobs: async () => ((await (await fetch(`${service.url}/health`)).json()) as { jobs: number }).jobs,
    close: async () => {
      provider.close();
      await endpoint.close();
      await service.stop();
    },
  };
});

generationProviderConformance('OpenAIImagesProvider (OpenAI SDK against a local OpenAI-compatible server)', { callbacks: true, cancel: true, lookup: true, refuses: true }, async () => {
  const stub = await openAIStub();
  const provider = new OpenAIImagesProvider({ apiKey: 'sk-test', baseUrl: stub.baseUrl, filesDir: join(root, 'oai'), redeliverMs: 200 });
  return {
    provider,
    accepted: openAIAccepted,
    slow: [openAISlow],
    refused: openAIRefused,
    upstreamJobs: () => stub.imageRequests.length,
    close: async () => {
      provider.close();
      await stub.close();
    },
  };
});

generationProviderConformance('RoutedProvider (images to OpenAI, the rest simulated, as the app builds it)', { callbacks: true, cancel: true, lookup: true, refuses: true }, async () => {
  const stub = await openAIStub();
  const images = new OpenAIImagesProvider({ apiKey: 'sk-test', baseUrl: stub.baseUrl, filesDir: join(root, 'routed'), redeliverMs: 200 });
  const simulated = new SimulatedProvider({ filesDir: join(root, 'routed'), latencyMs: LATENCY });
  const provider = new RoutedProvider({ IMAGE: { provider: images, idPrefix: 'oai_img_' } }, simulated);
  return {
    provider,
    // One request per route, so every routed call (status, cancel, lookup by id or key) is exercised on both.
    accepted: [{ label: 'IMAGE via OpenAI', req: openAIAccepted[0]!.req }, { label: 'AUDIO via the simulation', req: shape('AUDIO', 'conformance audio') }],
    slow: [{ ...openAISlow, label: 'IMAGE via OpenAI' }, { ...simSlow[0]!, label: 'VIDEO via the simulation' }],
    refused: [
      openAIRefused[1]!,
      { label: 'a kind outside GenerationKind', req: shape(HOLOGRAM, 'a hologram'), quote: /does not offer HOLOGRAM/, submit: /does not offer HOLOGRAM/ },
      { label: 'a kind named like an object built-in', req: shape(BUILTIN, 'a builtin'), quote: /does not offer constructor/, submit: /does not offer constructor/ },
    ],
    upstreamJobs: () => stub.imageRequests.length + simJobs(simulated),
    close: async () => {
      provider.close();
      await stub.close();
    },
  };
});
