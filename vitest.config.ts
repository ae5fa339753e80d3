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
    // Vitest's default is the cores less one: a single worker on a 2-core machine, idle
    // while a file waits on a sign-in page or a host's answer. Two keep both cores busy.
    maxWorkers: 2,
    reporters: ['default'],
  },
})
