import { describe, expect, it } from 'vitest'
import { raiseWindow } from '../../src/main/electron/raise-window.js'

function fakeWindow(minimized: boolean) {
  const calls: string[] = []
  return {
    calls,
    isMinimized: () => minimized,
    restore: () => void calls.push('restore'),
    show: () => void calls.push('show'),
    focus: () => void calls.push('focus'),
  }
}

describe('raiseWindow', () => {
  it('restores a minimized window before showing and focusing it', () => {
    const win = fakeWindow(true)
    raiseWindow(win)
    expect(win.calls).toEqual(['restore', 'show', 'focus'])
  })

  it('shows and focuses a window that is only behind others, without restoring it', () => {
    const win = fakeWindow(false)
    raiseWindow(win)
    expect(win.calls).toEqual(['show', 'focus'])
  })

  it('does nothing when every window is closed', () => {
    expect(() => raiseWindow(undefined)).not.toThrow()
  })
})
