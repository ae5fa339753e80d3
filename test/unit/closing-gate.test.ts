import { describe, expect, it } from 'vitest'
import { closingGate } from '../../src/main/core/ipc/closing-gate.js'
import { dispatch, type Handlers } from '../../src/main/core/ipc/dispatch.js'

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('closing the core while a window still calls it', () => {
  it('lets a call under way finish before closing, and turns away calls after, in plain words', async () => {
    const log: string[] = []
    const gate = closingGate({
      'sync.now': async () => {
        await later(50)
        log.push('sync done')
        return {}
      },
      'accounts.list': async () => [],
    } as unknown as Handlers)

    const underWay = dispatch(gate.handlers, 'sync.now', {})
    const drained = gate.drain().then(() => log.push('closed'))
    const after = await dispatch(gate.handlers, 'accounts.list', {})

    expect(await underWay).toEqual({ ok: true, value: {} })
    await drained
    expect(log).toEqual(['sync done', 'closed'])
    expect(after).toEqual({ ok: false, error: { code: 'AppClosing', message: expect.stringContaining('Convene is closing') } })
  })

  it('does not wait past its grace for a call that waits on the person', async () => {
    const gate = closingGate({ 'accounts.awaitSignIn': () => new Promise(() => {}) } as unknown as Handlers, 30)
    void gate.handlers['accounts.awaitSignIn']({ attemptId: 'x' })
    const started = Date.now()
    await gate.drain()
    expect(Date.now() - started).toBeLessThan(1_000)
  })
})
