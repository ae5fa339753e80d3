/**
 * The GitHub Actions workflows cannot run on this machine, so `npm test` checks them:
 * each against GitHub's workflow schema with action-validator (the npm registry's
 * @action-validator/cli), and each for the jobs the project relies on.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const workflows = join(root, '.github', 'workflows')
// Run its script with this Node: its bin shim is a .cmd file on Windows.
const validator = createRequire(import.meta.url).resolve('@action-validator/cli/cli.mjs')
const scratch = mkdtempSync(join(tmpdir(), 'convene-workflows-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** action-validator's verdict on one file: its exit code and what it printed. */
async function validate(file: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [validator, file])
    return { code: 0, output: stdout + stderr }
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string }
    return { code, output: stdout + stderr }
  }
}

const read = (name: string) => readFileSync(join(workflows, name), 'utf8')

describe('the CI workflows', () => {
  const files = readdirSync(workflows).filter((name) => /\.ya?ml$/.test(name))

  it('include ci.yml and release.yml', () => {
    expect(files).toEqual(expect.arrayContaining(['ci.yml', 'release.yml']))
  })

  it.each(files)('%s is a valid GitHub Actions workflow', async (name) => {
    const { code, output } = await validate(join(workflows, name))
    expect(output).toBe('')
    expect(code).toBe(0)
  })

  it('a broken workflow fails the check, naming what is wrong', async () => {
    const broken = join(scratch, 'ci.yml')
    writeFileSync(broken, read('ci.yml').replace('runs-on:', 'runs_on:'))
    const { code, output } = await validate(broken)
    expect(code).not.toBe(0)
    expect(output).toContain("Additional property 'runs_on' is not allowed")
  })

  it('ci.yml runs the README’s test command with Node 22 on Linux, macOS and Windows, Electron under xvfb on Linux', () => {
    const ci = parse(read('ci.yml'))
    const test = ci.jobs.test
    expect(test.strategy.matrix.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest'])
    const setupNode = test.steps.find((step: { uses?: string }) => step.uses?.startsWith('actions/setup-node@'))
    expect(String(setupNode.with['node-version'])).toBe('22')
    const runs: string[] = test.steps.map((step: { run?: string }) => step.run ?? '')
    expect(runs).toContain('npm test')
    const electron = test.steps.find((step: { run?: string }) => step.run?.includes('--project electron'))
    expect(electron.if).toBe("runner.os == 'Linux'")
    expect(electron.run).toMatch(/^xvfb-run /)
    expect(ci.on).toHaveProperty('workflow_call')
  })

  it('release.yml builds, signs and publishes on version tags after the tests, with secrets only from the repository settings', () => {
    const release = parse(read('release.yml'))
    expect(release.on.push.tags).toEqual(['v*.*.*'])
    expect(release.jobs.test.uses).toBe('./.github/workflows/ci.yml')
    expect(release.jobs.release.needs).toBe('test')
    expect(release.jobs.release.strategy.matrix.include.map((entry: { os: string }) => entry.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest'])
    const dist = release.jobs.release.steps.find((step: { run?: string }) => step.run?.startsWith('npm run dist'))
    expect(dist.run).toContain('--publish always')
    for (const name of ['GH_TOKEN', 'CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER', 'WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD']) {
      expect(dist.env[name], name).toMatch(/\$\{\{ .*secrets\.[A-Z_]+.* \}\}/)
    }
    expect(read('release.yml')).toContain('secrets.APPLE_API_KEY }}')
  })
})
