/**
 * Takes the run's group host down until the returned function brings it back (see
 * global-setup.ts). Tests call that in a `finally`, so one failing test cannot leave
 * the shared network without its host.
 */
export async function takeHostDown(): Promise<() => Promise<void>> {
  const base = process.env.CONVENE_E2E_STACK_CONTROL
  if (!base) throw new Error('no stack control: run the e2e tests through playwright.config.ts')
  const post = async (what: string) => {
    const res = await fetch(`${base}/host/${what}`, { method: 'POST' })
    if (!res.ok) throw new Error(`host ${what}: ${res.status} ${await res.text()}`)
  }
  await post('down')
  return () => post('up')
}
