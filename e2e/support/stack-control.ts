import { workerNetwork } from './worker-network.js'

/**
 * Takes this worker's group host down until the returned function brings it back (see
 * global-setup.ts). Tests call that in a `finally`, so one failing test cannot leave
 * the shared network without its host.
 */
export function takeHostDown(): Promise<() => Promise<void>> {
  return control('down')
}

/**
 * Hangs this worker's group host until the returned function brings it back: its port takes
 * every connection and never answers (the app's time limit, not a refused connection,
 * is what ends each request). Use with the `hostTimeoutMs` fixture option.
 */
export function hangHost(): Promise<() => Promise<void>> {
  return control('hang')
}

async function control(how: 'down' | 'hang'): Promise<() => Promise<void>> {
  const base = workerNetwork().control
  const post = async (what: string) => {
    const res = await fetch(`${base}/host/${what}`, { method: 'POST' })
    if (!res.ok) throw new Error(`host ${what}: ${res.status} ${await res.text()}`)
  }
  await post(how)
  return () => post('up')
}
