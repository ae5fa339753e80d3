import { defineConfig } from 'vitest/config'
import { aliases } from './aliases.config'

/**
 * The host's storage tests again on PostgreSQL (issue 18), as part of `npm test`
 * (scripts/test-session.sh): a throwaway cluster for the run (test/support/postgres-setup.ts),
 * a fresh database per test file, and the files that exercise storage: creating groups,
 * joining and admitting (and the change-log position a write answers), spaces per group, the change log, its stream and its pruning, space records, concurrent writes, rate limits,
 * service-auth and DPoP replay, group credentials, ended group sessions, old join requests, rotate-key. Plus test/postgres: several host
 * processes on one database.
 */
export default defineConfig({
  // The same module aliases as vitest.config.ts, or a test using them would load in one run only.
  resolve: { alias: aliases },
  test: {
    include: [
      'test/integration/host/createGroup.test.ts',
      'test/integration/host/groups-per-account.test.ts',
      'test/integration/host/requestJoin.test.ts',
      'test/integration/host/admitMember.test.ts',
      'test/integration/host/membership-changes.test.ts',
      'test/integration/host/listChanges.test.ts',
      'test/integration/host/listAuditLog.test.ts',
      'test/integration/host/my-invites.test.ts',
      'test/integration/host/answered-invites.test.ts',
      'test/integration/host/subscribeChanges.test.ts',
      'test/integration/host/change-log-retention.test.ts',
      'test/integration/host/change-log-pruning.test.ts',
      'test/integration/host/space-records.test.ts',
      'test/integration/host/concurrency.test.ts',
      'test/integration/host/rate-limits.test.ts',
      'test/integration/host/rate-limits-low.test.ts',
      'test/integration/host/rate-limits-anonymous.test.ts',
      'test/integration/host/service-auth.test.ts',
      'test/integration/host/group-auth.test.ts',
      'test/integration/host/oauth-session-pruning.test.ts',
      'test/integration/host/join-request-pruning.test.ts',
      'test/integration/host/rotate-key.test.ts',
      'test/integration/host/group-repo.test.ts',
      'test/integration/host/repo-bounds.test.ts',
      'test/integration/host/event-standing.test.ts',
      'test/integration/host/spaces-per-group.test.ts',
      'test/integration/host/space-blobs.test.ts',
      'test/postgres/**/*.test.ts',
    ],
    globalSetup: ['test/support/postgres-setup.ts', 'test/support/shared-network.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: true,
    // Vitest's default is the cores less one: a single worker on a 2-core machine, idle
    // while a file waits on its host's or the PDS's answer. Two workers left the two cores
    // about half idle; three keep them about 80% busy (docs/testing.md has the figures).
    maxWorkers: 3,
    // As in vitest.config.ts: a worker keeps its modules from one file to the next.
    isolate: false,
    reporters: ['default'],
  },
})
