import fs from 'node:fs'
import os from 'node:os'

/** The machine the figures were measured on. */
export function describeMachine(): string {
  const cpus = os.cpus()
  return [
    `cpu      ${cpus[0]?.model ?? 'unknown'} (${os.availableParallelism()} cores available, ${cpus.length} online)`,
    `node     ${process.version} on ${os.platform()} ${os.release()} (${os.arch()})`,
    `openssl  ${process.versions.openssl}`,
    `memory   ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `busy     load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min) before this run` +
      (os.loadavg()[0]! > 0.5 ? ': the machine was busy just now; other work may share the cores with what is measured' : ''),
  ].join('\n')
}

/** Seconds of CPU (user + system) a process has used so far, from /proc; null where there is none. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces) start after its ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12]) // utime, stime
    return ticks / 100 // USER_HZ is 100 on Linux
  } catch {
    return null
  }
}
