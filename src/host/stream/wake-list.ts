/**
 * Streams waiting for a log to grow (the change feed, ./feed.ts, and the firehose,
 * ../repo/firehose.ts): each waits until the next wake or its own abort, whichever
 * comes first, and leaves no listener behind either way.
 */
export class WakeList {
  private readonly waiting = new Set<() => void>()

  /** Resolves at the next `wakeAll`, or at once when `signal` is (or becomes) aborted. */
  next(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        this.waiting.delete(done)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      this.waiting.add(done)
      signal?.addEventListener('abort', done, { once: true })
    })
  }

  wakeAll(): void {
    for (const done of [...this.waiting]) done()
  }
}
