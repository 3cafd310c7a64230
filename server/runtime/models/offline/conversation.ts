// The conversation as the offline model reads it (tool results as JSON, the user's own words, a
// change of direction). Its own turns carry its tag (`offline.tag` of the task's language,
// domain/replies/), so that no reader mistakes a template for a model's work; what a person reads on
// a card or a step does not: the app says once, plainly, that the offline model is running.

export const isUserText = (s: string) => /^\[(message|revise|add context) from the user\]/.test(s);
export const CHANGE = /\b(instead|rather|change|make it|actually|switch to|stattdessen|doch lieber|ändere|lieber|plutôt)\b/i;

export function safeJson(s: string): { status?: string; result?: unknown; error?: string } | null {
  try {
    return JSON.parse(s) as { status?: string; result?: unknown };
  } catch {
    return null;
  }
}
