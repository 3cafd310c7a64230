// Confidence arithmetic shared by the script and Latin-script decisions.
import type { LanguageDetection } from './codes.ts';

/** 1 - e^(-x/k): how much `x` units of evidence are worth, saturating towards 1. */
export const saturate = (x: number, k: number): number => 1 - Math.exp(-x / k);
export const round = (x: number): number => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;
export const UND: LanguageDetection = Object.freeze({ language: 'und', confidence: 0 });
