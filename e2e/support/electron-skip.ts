/** Why the Electron suite skips on machines like CI's (printed once per run). */
export const ELECTRON_SKIP_REASON =
  'no Electron binary on this machine (installed with ELECTRON_SKIP_BINARY_DOWNLOAD); the loopback-shell suite runs the same scenarios in Chromium.'
