import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { holdQuitUntilClosed } from '../../src/main/core/lifecycle/hold-quit.js'

/** Electron's quit as seen from `before-quit`: the app quits unless a listener prevents it. */
class FakeApp extends EventEmitter {
  log: string[] = []
  quit() {
    let prevented = false
    this.emit('before-quit', { preventDefault: () => (prevented = true) })
    this.log.push(prevented ? 'quit held' : 'quit')
  }
}

const deferred = () => {
  let resolve!: () => void
  let reject!: (err: Error) => void
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('quitting', () => {
  it('holds the quit until the core has closed, then quits', async () => {
    const app = new FakeApp()
    const closing = deferred()
    let closes = 0
    holdQuitUntilClosed(app, () => (closes++, closing.promise))
    app.quit()
    await settle()
    expect(app.log).toEqual(['quit held'])
    expect(closes).toBe(1)
    closing.resolve()
    await settle()
    expect(app.log).toEqual(['quit held', 'quit'])
  })

  it('a second quit while closing does not close twice, and the app quits once closed', async () => {
    const app = new FakeApp()
    const closing = deferred()
    let closes = 0
    holdQuitUntilClosed(app, () => (closes++, closing.promise))
    app.quit()
    app.quit()
    await settle()
    expect(app.log).toEqual(['quit held', 'quit held'])
    expect(closes).toBe(1)
    closing.resolve()
    await settle()
    expect(app.log).toEqual(['quit held', 'quit held', 'quit'])
    expect(closes).toBe(1)
  })

  it('still quits when closing fails, and says why', async () => {
    const app = new FakeApp()
    const logged: unknown[] = []
    holdQuitUntilClosed(app, () => Promise.reject(new Error('disk gone')), (m, err) => logged.push(m, (err as Error).message))
    app.quit()
    await settle()
    expect(app.log).toEqual(['quit held', 'quit'])
    expect(logged).toEqual(['[quit] closing the core failed', 'disk gone'])
  })
})
