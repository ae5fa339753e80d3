import { startPostgresCluster, type PostgresCluster } from '../../src/stack/postgres-cluster.js'

/**
 * Vitest global setup of the PostgreSQL run (vitest.postgres.config.ts): one throwaway
 * cluster for the whole run; each test file's host creates its own database in it
 * (test/support/local-network.ts). Workers inherit CONVENE_TEST_PG_URL.
 */
let cluster: PostgresCluster | undefined

export async function setup(): Promise<void> {
  cluster = await startPostgresCluster()
  process.env.CONVENE_TEST_PG_URL = cluster.adminUrl
}

export async function teardown(): Promise<void> {
  await cluster?.stop()
}
