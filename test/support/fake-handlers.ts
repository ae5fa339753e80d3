import { CHANNELS } from '../../src/shared/ipc/contract.js'
import type { Handlers } from '../../src/main/core/ipc/dispatch.js'

export const FAKE_INFO = {
  name: 'Convene',
  version: 't',
  shell: 'loopback' as const,
  network: { kind: 'atproto' as const, pdsUrl: null, hostUrl: null },
  keychain: { available: true, message: null },
}

/** Handlers for shell and contract tests: app.getInfo and accounts.list answer, the rest fail loudly. */
export function fakeHandlers(overrides: Partial<Handlers> = {}): Handlers {
  const handlers = Object.fromEntries(
    CHANNELS.map((c) => [c, async () => Promise.reject(new Error(`${c} is not used by this test`))]),
  ) as unknown as Handlers
  return { ...handlers, 'app.getInfo': async () => FAKE_INFO, 'accounts.list': async () => [], ...overrides }
}
