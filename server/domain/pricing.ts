// Model prices: a configurable table in US cents per million tokens. A model call's cost
// is computed from the usage the provider reported: cached input tokens (the provider's prompt
// cache, usage_metadata.input_token_details.cache_read) at the cached rate, the rest of the input
// at the input rate, output at the output rate. Pure.

export type ModelPrice = { inputPerMTok: number; cachedInputPerMTok: number; outputPerMTok: number };
/** Keyed by model name; '*router' and '*worker' are the fallbacks for a role's unknown model. */
export type PriceTable = Record<string, ModelPrice>;

export const DEFAULT_PRICES: PriceTable = {
  'atelier-offline': { inputPerMTok: 0, cachedInputPerMTok: 0, outputPerMTok: 0 },
  'atelier-scripted': { inputPerMTok: 0, cachedInputPerMTok: 0, outputPerMTok: 0 },
  // List prices at the time of writing (cents per million tokens); override with ATELIER_MODEL_PRICES.
  'gpt-4.1': { inputPerMTok: 200, cachedInputPerMTok: 50, outputPerMTok: 800 },
  'gpt-4.1-mini': { inputPerMTok: 40, cachedInputPerMTok: 10, outputPerMTok: 160 },
  '*router': { inputPerMTok: 40, cachedInputPerMTok: 10, outputPerMTok: 160 },
  '*worker': { inputPerMTok: 200, cachedInputPerMTok: 50, outputPerMTok: 800 },
};

export type Usage = { inputTokens: number; outputTokens: number; cachedTokens: number };

/** LangChain's usage_metadata (or anything shaped like it) → token counts. */
export function usageOf(u: unknown): Usage {
  const m = (u ?? {}) as { input_tokens?: number; output_tokens?: number; input_token_details?: { cache_read?: number } };
  return { inputTokens: m.input_tokens ?? 0, outputTokens: m.output_tokens ?? 0, cachedTokens: m.input_token_details?.cache_read ?? 0 };
}

export function priceOf(table: PriceTable, model: string, role: 'router' | 'worker'): ModelPrice {
  return table[model] ?? table[`*${role}`] ?? DEFAULT_PRICES[`*${role}`]!;
}

/** Cost of one call in cents (fractional). */
export function callCostCents(usage: Usage, price: ModelPrice): number {
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  return ((usage.inputTokens - cached) * price.inputPerMTok + cached * price.cachedInputPerMTok + usage.outputTokens * price.outputPerMTok) / 1_000_000;
}

/** Parses ATELIER_MODEL_PRICES (JSON, same shape as PriceTable) over the defaults. */
export function priceTableFromEnv(raw: string | undefined): PriceTable {
  if (!raw) return DEFAULT_PRICES;
  try {
    return { ...DEFAULT_PRICES, ...(JSON.parse(raw) as PriceTable) };
  } catch {
    return DEFAULT_PRICES;
  }
}
