// electron-builder's afterPack hook (electron-builder.yml: afterPack): flips Electron's
// fuses in the packaged binary, after it is copied and before it is signed, so the
// signature covers the flipped fuses. Only the packaged app is fused: `npm start`, the
// tests and Playwright's _electron (which attaches through the inspect arguments) run
// the unpackaged Electron, whose fuses stay as shipped.
import { join } from 'node:path'
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses'

/** Each fuse Convene sets, by its @electron/fuses name, and why. */
export const FUSES = {
  // ELECTRON_RUN_AS_NODE would turn the signed app into a plain Node that runs any
  // script with the app's identity (and its keychain access).
  RunAsNode: false,
  // NODE_OPTIONS (e.g. --require) would load code into the main process from the
  // environment, before any of ours.
  EnableNodeOptionsEnvironmentVariable: false,
  // --inspect and friends would let anyone who can start the app attach a debugger to
  // the main process, where sign-ins are handled.
  EnableNodeCliInspectArguments: false,
  // Only app.asar, never a loose app/ folder beside it that someone could drop in.
  OnlyLoadAppFromAsar: true,
  // The asar's hash is checked against the one recorded at packaging (macOS Info.plist,
  // Windows resources), so an edited app.asar does not start. Electron checks this on
  // macOS and Windows; on Linux the fuse has no effect.
  EnableEmbeddedAsarIntegrityValidation: true,
  // Cookies on disk are encrypted with a key kept in the OS keychain.
  EnableCookieEncryption: true,
}

/** The @electron/fuses configuration for one platform and architecture. */
export function fuseConfig(platform, arch) {
  const config = {
    version: FuseVersion.V1,
    // Flipping fuses invalidates the ad-hoc signature arm64 macOS binaries must carry
    // until electron-builder signs them properly.
    resetAdHocDarwinSignature: platform === 'darwin' && arch === 'arm64',
  }
  for (const [name, value] of Object.entries(FUSES)) config[FuseV1Options[name]] = value
  return config
}

/** The packaged Electron executable, named as electron-builder names it. */
export function executablePath(context) {
  const { appOutDir, electronPlatformName, packager } = context
  const name = packager.appInfo.productFilename
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return join(appOutDir, `${name}.app`)
  if (electronPlatformName === 'win32') return join(appOutDir, `${name}.exe`)
  return join(appOutDir, packager.executableName)
}

/** electron-builder's Arch enum is numeric; @electron/fuses wants its name. */
const ARCH_NAMES = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' }

export default async function afterPack(context) {
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch)
  await flipFuses(executablePath(context), fuseConfig(context.electronPlatformName, arch))
}
