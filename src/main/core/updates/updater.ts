/**
 * What the update logic needs from an updater, so it can be tested without Electron:
 * the Electron adapter (src/main/electron/updater.ts) wraps electron-updater behind it.
 */
export type UpdaterEvent =
  | { kind: 'available'; version: string }
  | { kind: 'none' }
  | { kind: 'downloaded'; version: string }
  | { kind: 'error'; error: Error }

export interface Updater {
  /** Asks the release feed whether a newer version exists; answers through events. */
  checkForUpdates(): Promise<void>
  /** Downloads the version an `available` event named; `downloaded` follows. */
  downloadUpdate(): Promise<void>
  /** Quits the app and installs the downloaded version (the quit goes through `before-quit`). */
  quitAndInstall(): void
  onEvent(listener: (event: UpdaterEvent) => void): void
}

/** Timers, injected so tests can move time by hand. */
export interface Clock {
  setTimer(fn: () => void, ms: number): { cancel(): void }
}

export const systemClock: Clock = {
  setTimer(fn, ms) {
    const t = setTimeout(fn, ms)
    t.unref?.()
    return { cancel: () => clearTimeout(t) }
  },
}
