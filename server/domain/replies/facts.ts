// What a remembered fact is about, read from its subject key (the memory extractor's keys:
// brand.colors, user.residence, preference.<topic>, …), so each language can phrase it. Pure.
import type { Fact, FactKind } from './types.ts';

export function factKind(subjectKey: string): FactKind {
  if (subjectKey === 'brand.colors' || subjectKey === 'brand.color') return 'brandColor';
  if (subjectKey === 'brand.font') return 'brandFont';
  if (subjectKey === 'brand.tone') return 'brandTone';
  if (subjectKey === 'brand.logo') return 'brandLogo';
  if (subjectKey === 'brand.tagline') return 'brandTagline';
  if (subjectKey === 'company.name') return 'companyName';
  if (subjectKey === 'company.location') return 'companyLocation';
  if (subjectKey === 'user.signature') return 'signature';
  if (subjectKey === 'user.residence') return 'residence';
  if (subjectKey === 'user.name') return 'name';
  if (subjectKey === 'user.work') return 'work';
  if (subjectKey.startsWith('preference.')) return 'prefer';
  if (subjectKey.startsWith('avoid.')) return 'avoid';
  if (subjectKey.startsWith('habit.')) return 'habit';
  return 'other';
}

export const fact = (subjectKey: string, value: string): Fact => ({ kind: factKind(subjectKey), subject: subjectKey, value });

/** A subject key read as words, for a fact no phrase covers: "preference.general" → "general". Never the raw key. */
export const subjectWords = (subjectKey: string): string => (subjectKey.split('.').pop() ?? subjectKey).replace(/[_-]+/g, ' ');
