// A bounded parser cache for Yoga: long documents are never kept.
import type { DocumentNode } from 'graphql';

/** Documents longer than this are parsed every time rather than kept in Yoga's parser cache. */
export const MAX_CACHED_DOCUMENT_CHARS = 16_384;

/**
 * Yoga keeps parsed documents and parse errors keyed by their text (1,024 of each by default). A
 * flood of distinct near-megabyte documents would then hold a gigabyte of keys; no document the
 * apps send is longer than a few kilobytes, so longer ones are not kept. (Map order is insertion
 * order: a hit is re-inserted, the oldest entry is dropped first.)
 */
export function parserCache(max = 1024) {
  const bounded = <T>() => {
    const m = new Map<string, T>();
    return {
      get(key: string): T | undefined {
        if (key.length > MAX_CACHED_DOCUMENT_CHARS) return undefined;
        const v = m.get(key);
        if (v !== undefined) {
          m.delete(key);
          m.set(key, v);
        }
        return v;
      },
      set(key: string, value: T): void {
        if (key.length > MAX_CACHED_DOCUMENT_CHARS) return;
        m.delete(key);
        m.set(key, value);
        if (m.size > max) m.delete(m.keys().next().value as string);
      },
    };
  };
  return { documentCache: bounded<DocumentNode>(), errorCache: bounded<unknown>(), validationCache: true };
}
