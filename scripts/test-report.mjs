// The closing table of `npm test` (scripts/test-session.sh): each phase's time and how it
// ended, then the ten slowest test files across Vitest and Playwright, so a regression
// shows in the next run's own output. Reads what the session wrote in .test-report/:
// phases.tsv (name, seconds, status per line) and the runners' JSON reports. Prints only;
// no test fails for being slow (docs/testing.md: the cost of a test is watched, not timed).
import fs from 'node:fs'
import path from 'node:path'

const dir = process.argv[2] ?? '.test-report'
const read = (file) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'))
  } catch {
    return null
  }
}
const minutes = (s) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`

const phases = fs.existsSync(path.join(dir, 'phases.tsv'))
  ? fs
      .readFileSync(path.join(dir, 'phases.tsv'), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name, seconds, status] = line.split('\t')
        return { name, seconds: Number(seconds), status }
      })
  : []

/** Per file: [file, seconds, tests] from Vitest's JSON report. */
function vitestFiles(report, label) {
  if (!report?.testResults) return []
  return report.testResults.map((f) => [
    `${path.relative(process.cwd(), f.name)}${label}`,
    (f.endTime - f.startTime) / 1000,
    f.assertionResults?.length ?? 0,
  ])
}

/** Per spec file: [file, seconds, tests] from Playwright's JSON report (its tests' durations summed). */
function playwrightFiles(report) {
  if (!report?.suites) return []
  const byFile = new Map()
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const ran = (t.results ?? []).filter((r) => r.status !== 'skipped')
        if (ran.length === 0) continue
        const key = `e2e/${spec.file}${t.projectName && t.projectName !== 'loopback-chromium' ? ` (${t.projectName})` : ''}`
        const entry = byFile.get(key) ?? [key, 0, 0]
        entry[1] += ran.reduce((n, r) => n + r.duration, 0) / 1000
        entry[2] += 1
        byFile.set(key, entry)
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const s of report.suites) walk(s)
  return [...byFile.values()]
}

const vitest = read('vitest.json')
const postgres = read('vitest-postgres.json')
const playwright = read('playwright.json')
const files = [...vitestFiles(vitest, ''), ...vitestFiles(postgres, ' (PostgreSQL)'), ...playwrightFiles(playwright)].sort((a, b) => b[1] - a[1])

const counts = []
if (vitest) counts.push(`Vitest ${vitest.numTotalTests} tests in ${vitest.testResults.length} files (${vitest.numFailedTests} failed, ${vitest.numPendingTests + (vitest.numTodoTests ?? 0)} skipped)`)
if (postgres) counts.push(`PostgreSQL ${postgres.numTotalTests} tests in ${postgres.testResults.length} files (${postgres.numFailedTests} failed)`)
if (playwright?.stats) counts.push(`Playwright ${playwright.stats.expected + playwright.stats.unexpected + playwright.stats.flaky} tests run (${playwright.stats.unexpected} failed, ${playwright.stats.flaky} flaky, ${playwright.stats.skipped} skipped)`)

const out = []
out.push('', '== time by phase', '', '| Phase | Time | |', '| --- | ---: | --- |')
let total = 0
for (const p of phases) {
  total += p.seconds
  out.push(`| ${p.name} | ${minutes(p.seconds)} | ${p.status} |`)
}
out.push(`| **all** | **${minutes(total)}** | |`)
if (counts.length) out.push('', ...counts.map((c) => `- ${c}`))
if (files.length) {
  out.push('', '== the ten slowest test files', '', '| File | Time | Tests |', '| --- | ---: | ---: |')
  for (const [file, seconds, tests] of files.slice(0, 10)) out.push(`| ${file} | ${seconds.toFixed(1)} s | ${tests} |`)
}
console.log(out.join('\n'))
