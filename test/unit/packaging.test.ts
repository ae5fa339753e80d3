/**
 * The packaging configuration, checked here because it only runs on a release machine:
 * a typo in electron-builder.yml, a path it names that is missing, or a fuse left open
 * would otherwise surface only when a release is cut (or never, for a fuse).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FuseState, FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import afterPack, { executablePath, FUSES, fuseConfig } from '../../build/after-pack.mjs'

const root = join(import.meta.dirname, '..', '..')
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'))
const require = createRequire(import.meta.url)

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js')
    await expect(validateConfiguration(config, { isEnabled: false })).resolves.toBeUndefined()
    // ...which can fail: an option electron-builder does not know.
    await expect(validateConfiguration({ ...config, mac: { ...config.mac, entitlement: 'x' } }, { isEnabled: false })).rejects.toThrow(/configuration\.mac/)
  })

  it('points at files that exist', () => {
    const paths = [
      config.afterPack,
      config.mac.icon,
      config.mac.entitlements,
      config.mac.entitlementsInherit,
      config.win.icon,
      config.linux.icon,
    ]
    for (const path of paths) expect(existsSync(join(root, path)), path).toBe(true)
    expect(config.directories.buildResources).toBe('build')
  })

  it('names an afterPack hook electron-builder can load', async () => {
    const { resolveFunction } = require('app-builder-lib/out/util/resolve.js')
    const hook = await resolveFunction(undefined, config.afterPack, 'afterPack', root)
    // Loaded by Node's own import, not vitest's (which transforms it): the same default
    // export, another instance.
    expect(typeof hook).toBe('function')
    expect(hook.name).toBe(afterPack.name)
  })

  it('rebuilds native modules for Electron and keeps them outside app.asar', () => {
    expect(config.npmRebuild).toBe(true)
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/*.node', 'node_modules/keytar/**', 'node_modules/better-sqlite3/**']))
  })

  it('signs macOS builds under the hardened runtime, notarized', () => {
    expect(config.mac.hardenedRuntime).toBe(true)
    expect(config.mac.notarize).toBe(true)
    const plist = readFileSync(join(root, config.mac.entitlements), 'utf8')
    // V8's JIT needs it under the hardened runtime; nothing that weakens it further.
    expect(plist).toMatch(/<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/)
    expect(plist).not.toMatch(/<key>com\.apple\.security\.cs\.(disable-library-validation|allow-dyld-environment-variables|disable-executable-page-protection)<\/key>/)
  })

  it('publishes to GitHub Releases, where electron-updater looks', () => {
    expect(config.publish).toMatchObject({ provider: 'github', owner: expect.any(String), repo: expect.any(String) })
  })
})

describe('the afterPack hook', () => {
  it('turns off running as Node, NODE_OPTIONS and the inspector; only app.asar, checked; cookies encrypted', () => {
    const fuses = fuseConfig('linux', 'x64')
    expect(fuses.version).toBe(FuseVersion.V1)
    expect(fuses[FuseV1Options.RunAsNode]).toBe(false)
    expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false)
    expect(fuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false)
    expect(fuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true)
    expect(fuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true)
    expect(fuses[FuseV1Options.EnableCookieEncryption]).toBe(true)
    // Every name is one @electron/fuses knows (a misspelt one would set nothing).
    for (const name of Object.keys(FUSES)) expect(FuseV1Options, name).toHaveProperty(name)
  })

  it('resets the ad-hoc signature only for arm64 macOS', () => {
    expect(fuseConfig('darwin', 'arm64').resetAdHocDarwinSignature).toBe(true)
    expect(fuseConfig('darwin', 'x64').resetAdHocDarwinSignature).toBe(false)
    expect(fuseConfig('win32', 'arm64').resetAdHocDarwinSignature).toBe(false)
  })

  it('finds the packaged executable as electron-builder names it on each system', () => {
    const packager = { appInfo: { productFilename: 'Convene' }, executableName: 'convene' }
    const at = (electronPlatformName: string) => executablePath({ appOutDir: '/out', electronPlatformName, packager })
    expect(at('darwin')).toBe(join('/out', 'Convene.app'))
    expect(at('win32')).toBe(join('/out', 'Convene.exe'))
    expect(at('linux')).toBe(join('/out', 'convene'))
  })

  it('flips those fuses in the packaged binary, on Linux and inside a macOS bundle, and leaves the others as Electron ships them', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'convene-fuses-'))
    try {
      // A stand-in binary: some bytes, then the fuse wire as Electron lays it out (its
      // sentinel, version 1, length, one '0'/'1' per fuse) with Electron's defaults.
      const shipped = '101100011' // RunAsNode on, cookie encryption off, NODE_OPTIONS on, inspect on, ...
      const fake = Buffer.concat([Buffer.alloc(4096, 7), Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'), Buffer.from([1, shipped.length]), Buffer.from(shipped), Buffer.alloc(64)])
      const packager = { appInfo: { productFilename: 'Convene' }, executableName: 'convene' }
      const linux = join(scratch, 'linux-unpacked')
      mkdirSync(linux)
      writeFileSync(join(linux, 'convene'), fake)
      const framework = join(scratch, 'mac', 'Convene.app', 'Contents', 'Frameworks', 'Electron Framework.framework')
      mkdirSync(framework, { recursive: true })
      writeFileSync(join(framework, 'Electron Framework'), fake)

      await afterPack({ appOutDir: linux, electronPlatformName: 'linux', arch: 1, packager })
      await afterPack({ appOutDir: join(scratch, 'mac'), electronPlatformName: 'darwin', arch: 1, packager })
      for (const binary of [join(linux, 'convene'), join(scratch, 'mac', 'Convene.app')]) {
        const wire = await getCurrentFuseWire(binary)
        expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE)
        expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE)
        expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE)
        expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE)
        expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE)
        expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE)
        expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.ENABLE)
        expect(wire[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]).toBe(FuseState.DISABLE)
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })

  it('fails the build when there is no Electron binary to fuse', async () => {
    const context = {
      appOutDir: join(root, 'no-such-folder'),
      electronPlatformName: 'linux',
      arch: 1,
      packager: { appInfo: { productFilename: 'Convene' }, executableName: 'convene' },
    }
    await expect(afterPack(context)).rejects.toThrow(/ENOENT.*no-such-folder/)
  })
})
