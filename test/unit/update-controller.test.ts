import { describe, expect, it } from 'vitest'
import { CHECK_EVERY_MS, RECHECK_PENDING_MS, UpdateController } from '../../src/main/core/updates/update-controller.js'
import type { Clock, Updater, UpdaterEvent } from '../../src/main/core/updates/updater.js'

/** Timers that fire only when the test moves time. */
class FakeClock implements Clock {
  now = 0
  private timers: { at: number; fn: () => void; live: boolean }[] = []
  setTimer(fn: () => void, ms: number) {
    const t = { at: this.now + ms, fn, live: true }
    this.timers.push(t)
    return { cancel: () => void (t.live = false) }
  }
  async advance(ms: number) {
    const end = this.now + ms
    for (;;) {
      const next = this.timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0]
      if (!next) break
      this.now = next.at
      next.live = false
      next.fn()
      await settle()
    }
    this.now = end
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

/** Records what was asked of it; the test says what the release feed answers. */
class FakeUpdater implements Updater {
  calls: string[] = []
  feed: UpdaterEvent = { kind: 'none' }
  private listener: (e: UpdaterEvent) => void = () => {}
  async checkForUpdates() {
    this.calls.push('check')
    this.emit(this.feed)
  }
  async downloadUpdate() {
    this.calls.push('download')
  }
  quitAndInstall() {
    this.calls.push('quitAndInstall')
  }
  onEvent(listener: (e: UpdaterEvent) => void) {
    this.listener = listener
  }
  emit(e: UpdaterEvent) {
    this.listener(e)
  }
}

function setup(pending = 0) {
  const clock = new FakeClock()
  const updater = new FakeUpdater()
  const box = { pending }
  const controller = new UpdateController({ updater, clock, pendingChanges: async () => box.pending })
  return { clock, updater, controller, box }
}

describe('updates', () => {
  it('checks at start and every six hours, not in between', async () => {
    const { clock, updater, controller } = setup()
    controller.start()
    await settle()
    expect(updater.calls).toEqual(['check'])
    await clock.advance(CHECK_EVERY_MS - 1)
    expect(updater.calls).toEqual(['check'])
    await clock.advance(1)
    expect(updater.calls).toEqual(['check', 'check'])
    await clock.advance(CHECK_EVERY_MS)
    expect(updater.calls).toEqual(['check', 'check', 'check'])
    expect(controller.status()).toMatchObject({ state: 'idle', canRestart: false, message: 'Convene is up to date.' })
    controller.stop()
    await clock.advance(CHECK_EVERY_MS * 3)
    expect(updater.calls).toHaveLength(3)
  })

  it('downloads a new version in the background, then offers to restart', async () => {
    const { updater, controller } = setup()
    updater.feed = { kind: 'available', version: '1.2.0' }
    controller.start()
    await settle()
    expect(updater.calls).toEqual(['check', 'download'])
    expect(controller.status()).toMatchObject({ state: 'downloading', version: '1.2.0', canRestart: false })
    updater.emit({ kind: 'downloaded', version: '1.2.0' })
    expect(controller.status()).toMatchObject({ state: 'ready', canRestart: true, message: 'Convene 1.2.0 is ready. Restart to update.' })
    expect(updater.calls).not.toContain('quitAndInstall')
  })

  it('does not ask the feed again while a version downloads or waits to be installed', async () => {
    const { clock, updater, controller } = setup()
    updater.feed = { kind: 'available', version: '1.2.0' }
    controller.start()
    await settle()
    await clock.advance(CHECK_EVERY_MS)
    updater.emit({ kind: 'downloaded', version: '1.2.0' })
    await clock.advance(CHECK_EVERY_MS)
    expect(updater.calls.filter((c) => c === 'check')).toHaveLength(1)
  })

  it('restarts at once when no change waits to be sent', async () => {
    const { updater, controller } = setup(0)
    updater.emit({ kind: 'downloaded', version: '1.2.0' })
    expect(await controller.restartToUpdate()).toMatchObject({ state: 'restarting' })
    expect(updater.calls).toEqual(['quitAndInstall'])
  })

  it('never restarts while changes wait to be sent: it says so, and restarts once they have gone out', async () => {
    const { clock, updater, controller, box } = setup(3)
    updater.emit({ kind: 'downloaded', version: '1.2.0' })
    const waiting = await controller.restartToUpdate()
    expect(waiting).toMatchObject({ state: 'waiting', pendingChanges: 3, canRestart: false })
    expect(waiting.message).toBe('3 changes are still waiting to be sent. Convene will restart to update once they have gone out.')
    await clock.advance(RECHECK_PENDING_MS)
    box.pending = 1
    await clock.advance(RECHECK_PENDING_MS)
    expect(controller.status().message).toBe('1 change is still waiting to be sent. Convene will restart to update once it has gone out.')
    expect(updater.calls).toEqual([])
    box.pending = 0
    await clock.advance(RECHECK_PENDING_MS)
    expect(updater.calls).toEqual(['quitAndInstall'])
    expect(controller.status().state).toBe('restarting')
  })

  it('does not restart when it cannot count the waiting changes', async () => {
    const clock = new FakeClock()
    const updater = new FakeUpdater()
    const controller = new UpdateController({ updater, clock, pendingChanges: async () => Promise.reject(new Error('cache closed')) })
    updater.emit({ kind: 'downloaded', version: '1.2.0' })
    expect(await controller.restartToUpdate()).toMatchObject({ state: 'waiting' })
    expect(updater.calls).toEqual([])
  })

  it('offers no restart before anything was downloaded', async () => {
    const { updater, controller } = setup(0)
    expect(await controller.restartToUpdate()).toMatchObject({ state: 'idle', canRestart: false })
    expect(updater.calls).toEqual([])
  })

  it('a failed check is told plainly and tried again six hours later; a downloaded version stays on offer', async () => {
    const logs: string[] = []
    const clock = new FakeClock()
    const updater = new FakeUpdater()
    updater.checkForUpdates = async () => {
      updater.calls.push('check')
      throw new Error('net::ERR_INTERNET_DISCONNECTED')
    }
    const controller = new UpdateController({ updater, clock, pendingChanges: async () => 0, log: (m) => logs.push(m) })
    controller.start()
    await settle()
    expect(controller.status()).toMatchObject({ state: 'error', canRestart: false, message: 'Convene could not check for updates. It will try again later.' })
    expect(logs).toEqual(['[updates] net::ERR_INTERNET_DISCONNECTED'])
    await clock.advance(CHECK_EVERY_MS)
    expect(updater.calls).toEqual(['check', 'check'])
    updater.emit({ kind: 'downloaded', version: '1.2.0' })
    updater.emit({ kind: 'error', error: new Error('later') })
    expect(controller.status()).toMatchObject({ state: 'ready', canRestart: true })
  })
})
