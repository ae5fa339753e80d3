import { afterAll } from 'vitest'

/** A request this process made: where it went, and its XRPC method (or other path). */
export interface SeenRequest {
  origin: string
  method: string
}

/**
 * Keeps every request this test file's process makes (the cores under test run in it),
 * oldest first, until the file ends: how a test counts what the app asked its host and
 * its PDS.
 */
export function recordRequests(): SeenRequest[] {
  const seen: SeenRequest[] = []
  const realFetch = globalThis.fetch
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    seen.push({ origin: url.origin, method: url.pathname.replace('/xrpc/', '') })
    return realFetch(input, init)
  }) as typeof fetch
  afterAll(() => {
    globalThis.fetch = realFetch
  })
  return seen
}
