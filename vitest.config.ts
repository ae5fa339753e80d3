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
    // Two cores: files run in parallel, but each starts its own network on free ports.
    fileParallelism: true,
    reporters: ['default'],
  },
})
