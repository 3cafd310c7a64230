// Handing a feed's stream to a transport (graphql-ws, SSE): the consumer's `return()` (unsubscribe,
// socket closed) must take effect at once, even while the stream waits for its next row.
/**
 * Wraps a stream factory so that the consumer's `return()` takes effect at once. A plain async
 * generator would queue `return()` behind its pending `await`. Yoga's SSE stream only calls
 * `return()` after its pending read settles, so an SSE request's abort signal also ends the stream.
 */
export function closableStream<T>(
  make: (signal: AbortSignal) => AsyncGenerator<T>,
  /** The transport's own "client went away" signal (an SSE request's), when it has one. */
  external?: AbortSignal,
): AsyncIterableIterator<T> {
  const ac = new AbortController();
  if (external) {
    if (external.aborted) ac.abort();
    else external.addEventListener('abort', () => ac.abort(), { once: true });
  }
  const inner = make(ac.signal);
  const it: AsyncIterableIterator<T> = {
    next: () => inner.next(),
    return: async (value?: unknown) => {
      ac.abort();
      await inner.return(undefined as never).catch(() => {});
      return { done: true, value: value as T };
    },
    throw: async (err?: unknown) => {
      ac.abort();
      return inner.throw(err);
    },
    [Symbol.asyncIterator]() {
      return it;
    },
  };
  return it;
}
