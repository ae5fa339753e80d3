/** The part of Electron's `app` the quit hold needs. */
export interface QuittingApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown
  quit(): void
}

/**
 * Holds the app's quit until the core has closed: Electron does not wait for promises in
 * `before-quit`, so the first quit is stopped, the core lets calls under way finish
 * (later ones are refused) and closes its caches, and then the quit is asked for again
 * and let through. A second quit while closing (a second Cmd-Q) waits for the same
 * close; a close that fails still quits, after saying why.
 */
export function holdQuitUntilClosed(app: QuittingApp, close: () => Promise<void>, log: (message: string, err: unknown) => void = console.error) {
  let state: 'open' | 'closing' | 'closed' = 'open'
  app.on('before-quit', (event) => {
    if (state === 'closed') return
    event.preventDefault()
    if (state === 'closing') return
    state = 'closing'
    void close()
      .catch((err: unknown) => log('[quit] closing the core failed', err))
      .finally(() => {
        state = 'closed'
        app.quit()
      })
  })
}
