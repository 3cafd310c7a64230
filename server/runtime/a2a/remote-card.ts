// A remote agent's card, fetched and verified before anything is sent to the agent. The card must
// carry a JWS signature (A2A's signatures, over the JCS canonical form) that verifies with the key
// the workspace registered for that agent: its one public JWK, or the key of the signature's kid
// in the registered JWKS URL. The card's own `jku` is never followed — a forger would simply point
// it at a JWKS of their own. An unsigned card, or one signed by any other key, is refused.
import { AgentCard, verifyAgentCardSignature } from '@a2a-js/sdk';
import { importJWK, type JWK } from 'jose';
import type { FetchLike } from '../egress/gate.ts';
import type { RemoteAgentRow } from '../../store/a2a/remote-agents.ts';

export const CARD_PATH = '/.well-known/agent-card.json';

export class CardRefused extends Error {}

async function keyFor(agent: RemoteAgentRow, fetchImpl: FetchLike, kid: string) {
  const registered = agent.publicJwk as JWK | null;
  if (registered && (!registered.kid || registered.kid === kid)) return importJWK(registered, 'ES256');
  if (agent.jwksUrl) {
    const res = await fetchImpl(agent.jwksUrl, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new CardRefused(`its key set at ${agent.jwksUrl} answered ${res.status}`);
    const jwks = (await res.json()) as { keys?: JWK[] };
    const jwk = jwks.keys?.find((k) => k.kid === kid);
    if (jwk) return importJWK(jwk, jwk.alg ?? 'ES256');
  }
  throw new CardRefused(`it is signed with key "${kid}", which is not the key registered for the agent`);
}

/** The agent's card, verified; throws CardRefused with a sentence saying why it is refused. */
export async function fetchVerifiedCard(agent: RemoteAgentRow, fetchImpl: FetchLike): Promise<AgentCard> {
  const url = `${agent.url}${CARD_PATH}`;
  const res = await fetchImpl(url, { headers: { accept: 'application/json', 'a2a-version': '1.0' }, signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new CardRefused(`The agent card of "${agent.name}" could not be read (${url} answered ${res.status})`);
  let card: AgentCard;
  try {
    card = AgentCard.fromJSON(await res.json());
  } catch {
    throw new CardRefused(`The agent card of "${agent.name}" is not JSON`);
  }
  if (!card.signatures?.length) throw new CardRefused(`The agent card of "${agent.name}" is not signed; an unsigned card is refused`);
  try {
    await verifyAgentCardSignature(async (kid) => {
      const key = await keyFor(agent, fetchImpl, kid);
      return key as CryptoKey;
    })(card);
  } catch (e) {
    const why = e instanceof CardRefused ? e.message : 'its signature does not verify with the key registered for the agent';
    throw new CardRefused(`The agent card of "${agent.name}" is refused: ${why}`);
  }
  return card;
}
