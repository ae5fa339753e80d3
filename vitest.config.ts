import { defineConfig } from 'vitest/config'
import { aliases } from './aliases.config'

export default defineConfig({
  resolve: { alias: aliases },
  test: {
    include: ['test/**/*.test.ts'],
    // Needs the PostgreSQL cluster of vitest.postgres.config.ts, which runs it.
    exclude: ['test/postgres/**', '**/node_modules/**'],
    // Integration tests start the real local network (PLC, PDS, host): seconds, not ms.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    // One PLC and PDS for the run; each file starts its own group host and people on them.
    globalSetup: ['test/support/shared-network.ts'],
    fileParallelism: true,
    // A worker keeps its modules from one file to the next (no file mocks modules or
    // leaves globals changed): each file no longer imports the core, the host's client
    // and their packages anew, which was about a tenth of the run.
    isolate: false,
    // Vitest's default is the cores less one: a single worker on a 2-core machine, idle
    // while a file waits on its host's or the PDS's answer. Two workers left the two cores
    // about half idle; three keep them about 80% busy (docs/testing.md has the figures).
    maxWorkers: 3,
    reporters: ['default'],
  },
})
