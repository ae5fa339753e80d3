import type { MenuItemConstructorOptions } from 'electron'

export interface MenuInputs {
  platform: NodeJS.Platform
  /** Development runs get reload and developer tools; the installed app does not. */
  isDev: boolean
  openLogFolder: () => void
  /** Windows and Linux: the About box (macOS uses its own About panel, role 'about'). */
  showAbout: () => void
}

const sep: MenuItemConstructorOptions = { type: 'separator' }

/**
 * The application menu, built from its inputs alone so its entries and shortcuts can be
 * tested without Electron. Accelerators are spelled out even where a role has one, so
 * the test reads what people will press.
 */
export function menuTemplate({ platform, isDev, openLogFolder, showAbout }: MenuInputs): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const appMenu: MenuItemConstructorOptions[] = mac
    ? [
        {
          label: 'Convene',
          submenu: [
            { role: 'about', label: 'About Convene' },
            sep,
            { role: 'services' },
            sep,
            { role: 'hide', label: 'Hide Convene', accelerator: 'Cmd+H' },
            { role: 'hideOthers', accelerator: 'Cmd+Alt+H' },
            { role: 'unhide' },
            sep,
            { role: 'quit', label: 'Quit Convene', accelerator: 'Cmd+Q' },
          ],
        },
      ]
    : [{ label: '&File', submenu: [{ role: 'quit', label: platform === 'win32' ? 'E&xit' : '&Quit', accelerator: platform === 'win32' ? 'Alt+F4' : 'Ctrl+Q' }] }]

  return [
    ...appMenu,
    {
      label: mac ? 'Edit' : '&Edit',
      submenu: [
        { role: 'undo', accelerator: 'CmdOrCtrl+Z' },
        { role: 'redo', accelerator: mac ? 'Shift+Cmd+Z' : 'Ctrl+Y' },
        sep,
        { role: 'cut', accelerator: 'CmdOrCtrl+X' },
        { role: 'copy', accelerator: 'CmdOrCtrl+C' },
        { role: 'paste', accelerator: 'CmdOrCtrl+V' },
        ...(mac ? [{ role: 'pasteAndMatchStyle', accelerator: 'Alt+Shift+Cmd+V' } as const] : []),
        { role: 'delete' },
        sep,
        { role: 'selectAll', accelerator: 'CmdOrCtrl+A' },
      ],
    },
    {
      label: mac ? 'View' : '&View',
      submenu: [
        ...(isDev
          ? [
              { role: 'reload', accelerator: 'CmdOrCtrl+R' } as const,
              { role: 'forceReload', accelerator: 'Shift+CmdOrCtrl+R' } as const,
              { role: 'toggleDevTools', accelerator: mac ? 'Alt+Cmd+I' : 'Ctrl+Shift+I' } as const,
              sep,
            ]
          : []),
        { role: 'resetZoom', accelerator: 'CmdOrCtrl+0' },
        { role: 'zoomIn', accelerator: 'CmdOrCtrl+Plus' },
        // Most keyboards type + with Shift; Ctrl/Cmd with the = key zooms in too.
        { role: 'zoomIn', accelerator: 'CmdOrCtrl+=', visible: false },
        { role: 'zoomOut', accelerator: 'CmdOrCtrl+-' },
        sep,
        { role: 'togglefullscreen', accelerator: mac ? 'Ctrl+Cmd+F' : 'F11' },
      ],
    },
    {
      label: mac ? 'Window' : '&Window',
      role: 'windowMenu',
      submenu: mac
        ? [{ role: 'minimize', accelerator: 'Cmd+M' }, { role: 'zoom' }, sep, { role: 'front' }]
        : [
            { role: 'minimize', accelerator: 'Ctrl+M' },
            { role: 'close', accelerator: 'Ctrl+W' },
          ],
    },
    {
      label: mac ? 'Help' : '&Help',
      role: 'help',
      submenu: [
        { label: 'Open Log Folder', click: () => openLogFolder() },
        ...(mac ? [] : [sep, { label: 'About Convene', click: () => showAbout() }]),
      ],
    },
  ]
}

/** The versions the About box lists (people quote them in bug reports). */
export function aboutDetail(appVersion: string, versions: Partial<Record<'electron' | 'chrome' | 'node' | 'v8', string>>) {
  return [
    `Version ${appVersion}`,
    `Electron ${versions.electron ?? '?'}`,
    `Chromium ${versions.chrome ?? '?'}`,
    `Node ${versions.node ?? '?'}`,
    `V8 ${versions.v8 ?? '?'}`,
  ].join('\n')
}
