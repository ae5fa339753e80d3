/**
 * The bench's switches (bench/host.ts): `CONVENE_HOST_BASELINE` names speed-ups to leave
 * out, comma-separated, so one run can measure the host with and without each one
 * (`token-cache`: check every service-auth signature; `group-commit`: one SQLite
 * transaction and fsync per write). Not an operator's option: both are always wanted.
 */
export type Speedup = 'token-cache' | 'group-commit'

export function speedupOff(name: Speedup, env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.CONVENE_HOST_BASELINE ?? '').split(',').map((s) => s.trim()).includes(name)
}
