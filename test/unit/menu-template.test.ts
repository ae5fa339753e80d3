import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import { aboutDetail, menuTemplate } from '../../src/main/electron/menu-template.js'

type Item = MenuItemConstructorOptions

function build(platform: NodeJS.Platform, isDev = false) {
  const clicked: string[] = []
  const template = menuTemplate({ platform, isDev, openLogFolder: () => clicked.push('logs'), showAbout: () => clicked.push('about') })
  return { template, clicked }
}

const strip = (label = '') => label.replace(/&/g, '')
const menu = (template: Item[], label: string) => template.find((m) => strip(m.label) === label)
const items = (m: Item | undefined) => ((m?.submenu ?? []) as Item[]).filter((i) => i.type !== 'separator')
/** What people see and press: role or label, with its shortcut. */
const keys = (m: Item | undefined) => items(m).filter((i) => i.visible !== false).map((i) => [i.role ?? strip(i.label), i.accelerator ?? null])

describe('application menu', () => {
  it('on macOS: the app menu (About, Hide, Quit), Edit, View, Window, Help', () => {
    const { template } = build('darwin')
    expect(template.map((m) => strip(m.label))).toEqual(['Convene', 'Edit', 'View', 'Window', 'Help'])
    expect(keys(template[0])).toEqual([
      ['about', null],
      ['services', null],
      ['hide', 'Cmd+H'],
      ['hideOthers', 'Cmd+Alt+H'],
      ['unhide', null],
      ['quit', 'Cmd+Q'],
    ])
    expect(keys(menu(template, 'Edit'))).toEqual([
      ['undo', 'CmdOrCtrl+Z'],
      ['redo', 'Shift+Cmd+Z'],
      ['cut', 'CmdOrCtrl+X'],
      ['copy', 'CmdOrCtrl+C'],
      ['paste', 'CmdOrCtrl+V'],
      ['pasteAndMatchStyle', 'Alt+Shift+Cmd+V'],
      ['delete', null],
      ['selectAll', 'CmdOrCtrl+A'],
    ])
    expect(keys(menu(template, 'Window'))).toEqual([
      ['minimize', 'Cmd+M'],
      ['zoom', null],
      ['front', null],
    ])
    expect(keys(menu(template, 'View'))).toContainEqual(['togglefullscreen', 'Ctrl+Cmd+F'])
    // The About panel lives in the app menu; Help holds only the log folder.
    expect(keys(menu(template, 'Help'))).toEqual([['Open Log Folder', null]])
  })

  it('on Windows and Linux: File > Exit/Quit, Edit, View, Window (minimize, close), Help with About', () => {
    for (const [platform, quit] of [
      ['win32', ['quit', 'Alt+F4']],
      ['linux', ['quit', 'Ctrl+Q']],
    ] as const) {
      const { template, clicked } = build(platform)
      expect(template.map((m) => strip(m.label))).toEqual(['File', 'Edit', 'View', 'Window', 'Help'])
      expect(keys(template[0])).toEqual([quit])
      expect(keys(menu(template, 'Edit'))).toContainEqual(['redo', 'Ctrl+Y'])
      expect(keys(menu(template, 'Edit')).map(([role]) => role)).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'delete', 'selectAll'])
      expect(keys(menu(template, 'Window'))).toEqual([
        ['minimize', 'Ctrl+M'],
        ['close', 'Ctrl+W'],
      ])
      expect(keys(menu(template, 'View'))).toContainEqual(['togglefullscreen', 'F11'])
      const help = items(menu(template, 'Help'))
      expect(help.map((i) => i.label)).toEqual(['Open Log Folder', 'About Convene'])
      for (const item of help) (item.click as () => void)()
      expect(clicked).toEqual(['logs', 'about'])
    }
  })

  it('zooms with Ctrl/Cmd and 0, +, = and -; reloads and developer tools only in development', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const installed = menu(build(platform, false).template, 'View')
      expect(keys(installed).map(([role]) => role)).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'])
      expect(items(installed).filter((i) => i.role === 'zoomIn').map((i) => i.accelerator)).toEqual(['CmdOrCtrl+Plus', 'CmdOrCtrl+='])
      expect(keys(installed)).toContainEqual(['resetZoom', 'CmdOrCtrl+0'])
      expect(keys(installed)).toContainEqual(['zoomOut', 'CmdOrCtrl+-'])

      const dev = menu(build(platform, true).template, 'View')
      expect(keys(dev).slice(0, 3).map(([role]) => role)).toEqual(['reload', 'forceReload', 'toggleDevTools'])
    }
  })

  it('no two visible entries share a shortcut', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const all = build(platform, true).template.flatMap((m) => keys(m)).map(([, acc]) => acc).filter(Boolean)
      expect(new Set(all).size).toBe(all.length)
    }
  })

  it('the About box lists the app, Electron, Chromium, Node and V8 versions', () => {
    expect(aboutDetail('1.4.0', { electron: '37.2.0', chrome: '138.0.7204.97', node: '22.17.0', v8: '13.8.258.19' })).toBe(
      'Version 1.4.0\nElectron 37.2.0\nChromium 138.0.7204.97\nNode 22.17.0\nV8 13.8.258.19',
    )
  })
})
