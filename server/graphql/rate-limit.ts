// Token bucket per credential, in process memory. With several API processes each enforces its own
// share; a shared limiter (in PostgreSQL) is left for when abuse, not mistakes, is the threat.
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes n tokens (a request with several mutations costs one per mutation), all or none; false
   * when the credential has fewer left.
   */
  take(key: string, n = 1): boolean {
    const t = this.now();
    const b = this.refill(key, t);
    if (b.tokens < n) {
      this.buckets.set(key, b);
      return false;
    }
    b.tokens -= n;
    this.buckets.set(key, b);
    if (this.buckets.size > 10_000) this.sweep(t);
    return true;
  }

  /**
   * Whole seconds until n tokens are available (at least 1: a client told 0 would retry at once).
   * n above the bucket's size can never be taken; the answer is then a full minute.
   */
  retryAfterSeconds(key: string, n = 1): number {
    const b = this.refill(key, this.now());
    const missing = Math.min(n, this.perMinute) - b.tokens;
    if (missing <= 0) return 1;
    return Math.max(1, Math.ceil((missing / this.perMinute) * 60));
  }

  private refill(key: string, t: number): { tokens: number; at: number } {
    const b = this.buckets.get(key) ?? { tokens: this.perMinute, at: t };
    b.tokens = Math.min(this.perMinute, b.tokens + ((t - b.at) / 60_000) * this.perMinute);
    b.at = t;
    return b;
  }

  private sweep(t: number) {
    for (const [k, b] of this.buckets) if (t - b.at > 60_000) this.buckets.delete(k);
  }
}
