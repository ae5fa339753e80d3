/** The first wait after a connection drops. */
const FIRST_MS = 1_000
/** The longest wait between attempts: a host back after an outage is found within a minute. */
const CAP_MS = 60_000

/**
 * How long to wait before reconnecting, after `attempt` failed tries in a row (0 for the
 * first try after a drop): doubling from one second up to a minute, each wait drawn
 * between half and all of that, so the apps a host restart dropped do not all come back
 * in the same instant.
 */
export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(CAP_MS, FIRST_MS * 2 ** Math.min(attempt, 16))
  return Math.round(ceiling / 2 + random() * (ceiling / 2))
}
