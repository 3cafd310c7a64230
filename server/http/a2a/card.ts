// The A2A agent card (/.well-known/agent-card.json): who Atelier is, where its A2A endpoint is, how
// to authenticate (a bearer API token, as /mcp), and its skills — one per capability of the
// registry (runtime/capabilities.ts), so the card says what the agent can actually make. The card
// is signed (JWS over its JCS canonical form, the SDK's generateAgentCardSignature) with the
// deployment's own key, currentSigningKey(db, null); the protected header names the key (kid) and
// where its public half is published (jku = /.well-known/jwks.json), so a client verifies the card
// against that JWKS. Signed per origin and cached for a minute: a rotated key signs the next card.
import { generateAgentCardSignature, type AgentCard, type AgentSkill } from '@a2a-js/sdk';
import type { Capability } from '../../runtime/capabilities.ts';
import type { Deps } from '../../services/deps.ts';
import { currentSigningKey } from '../../store/agents/signing-keys.ts';

export const AGENT_CARD_PATH = '/.well-known/agent-card.json';
export const JWKS_PATH = '/.well-known/jwks.json';
export const A2A_PATH = '/a2a';
export const CARD_VERSION = '1.0.0';

const CACHE_MS = 60_000;

const DESCRIPTION =
  'Atelier is a workspace where people and a creative agent make posters, videos, 3D scenes, audio and documents. ' +
  'Send a message to start a task (or to continue one: its taskId, or its contextId after it ended). ' +
  'A task that needs a decision (a plan, a price, a pick) is input-required with the question as its status message: ' +
  'a person answers it in the Atelier studio, or your next message to the task does. Results are artifacts with signed download URLs.';

function skillOf(c: Capability): AgentSkill {
  const name = c.kind.charAt(0) + c.kind.slice(1).toLowerCase().replaceAll('_', ' ');
  const media: Record<string, string[]> = {
    IMAGE: ['image/png', 'image/jpeg', 'image/webp'],
    VIDEO: ['video/mp4'],
    AUDIO: ['audio/mpeg', 'audio/wav'],
    MODEL_3D: ['model/gltf-binary', 'model/gltf+json'],
    DOCUMENT: ['text/markdown'],
  };
  return {
    id: c.kind.toLowerCase(),
    name,
    description: `${c.description}${c.limits ? ` (${c.limits})` : ''}`,
    tags: [c.kind.toLowerCase(), ...(c.tool ? [c.tool] : [])],
    examples: [],
    inputModes: ['text/plain'],
    outputModes: media[c.kind] ?? ['text/plain'],
    securityRequirements: [],
  };
}

/** The card, unsigned, for one origin. */
export function agentCard(deps: Deps, origin: string): AgentCard {
  return {
    name: 'Atelier',
    description: DESCRIPTION,
    // One endpoint, both versions: the A2A-Version header picks (handler.ts).
    supportedInterfaces: [
      { url: `${origin}${A2A_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: `${origin}${A2A_PATH}`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Atelier', url: origin },
    version: CARD_VERSION,
    documentationUrl: `${origin}/mcp/docs`,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      atelierToken: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            scheme: 'Bearer',
            bearerFormat: 'Atelier API token',
            description: 'An Atelier API token of one workspace (the owner issues one with `npm run atelier -- token --scopes read,write`).',
          },
        },
      },
    },
    securityRequirements: [{ schemes: { atelierToken: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'image/png', 'video/mp4', 'audio/mpeg', 'model/gltf-binary', 'text/markdown'],
    skills: (deps.runtime.capabilities?.list ?? []).filter((c) => c.kind !== 'OTHER').map(skillOf),
    signatures: [],
  };
}

export type CardSigner = { signed(origin: string): Promise<AgentCard> };

export function createCardSigner(deps: Deps): CardSigner {
  const cache = new Map<string, { at: number; card: Promise<AgentCard> }>();
  return {
    signed(origin) {
      const hit = cache.get(origin);
      if (hit && Date.now() - hit.at < CACHE_MS) return hit.card;
      const card = (async () => {
        const key = await currentSigningKey(deps.prisma, null);
        const sign = generateAgentCardSignature(key.privateKey, { alg: 'ES256', kid: key.kid, typ: 'JOSE', jku: `${origin}${JWKS_PATH}` });
        return sign(agentCard(deps, origin));
      })();
      card.catch(() => cache.delete(origin));
      if (cache.size > 32) cache.clear();
      cache.set(origin, { at: Date.now(), card });
      return card;
    },
  };
}
