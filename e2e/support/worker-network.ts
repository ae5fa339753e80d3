/** Where global-setup.ts lists the run's networks, one per worker. */
export const E2E_STACKS_ENV = 'CONVENE_E2E_STACKS'

interface E2eNetwork {
  /** The network's stack file (src/shared/stack-file.ts). */
  stackFile: string
  /** Its control server (support/stack-control.ts). */
  control: string
}

/**
 * The local network of this Playwright worker: global-setup.ts starts one per worker, and
 * a worker's tests use only theirs, by the worker's parallel index (which a restarted
 * worker keeps), so one worker taking its group host down never reaches another's test.
 */
export function workerNetwork(): E2eNetwork {
  const text = process.env[E2E_STACKS_ENV]
  if (!text) throw new Error('no local network: run the e2e tests through playwright.config.ts')
  const networks = JSON.parse(text) as E2eNetwork[]
  return networks[Number(process.env.TEST_PARALLEL_INDEX ?? 0) % networks.length]!
}
