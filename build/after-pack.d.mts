// Types for build/after-pack.mjs (a plain ES module, so electron-builder loads it as is).
import type { FuseConfig } from '@electron/fuses'

export interface AfterPackContext {
  appOutDir: string
  electronPlatformName: string
  arch: number
  packager: { appInfo: { productFilename: string }; executableName: string }
}
export declare const FUSES: Record<string, boolean>
export declare function fuseConfig(platform: string, arch: string): FuseConfig
export declare function executablePath(context: Omit<AfterPackContext, 'arch'>): string
export default function afterPack(context: AfterPackContext): Promise<void>
