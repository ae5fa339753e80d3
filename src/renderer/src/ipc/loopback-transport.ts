import type { Transport } from '../../../shared/ipc/api'
import type { IpcEnvelope } from '../../../shared/ipc/envelope'

const SECRET_KEY = 'convene.launch'

/**
 * The loopback shell hands this page its launch secret in the URL fragment (never sent
 * to any server). Keep it for this tab's reloads and take it out of the address bar.
 */
export function takeLaunchSecret(): string | null {
  const match = /(?:^#|&)launch=([\w-]+)/.exec(window.location.hash)
  if (match) {
    sessionStorage.setItem(SECRET_KEY, match[1]!)
    history.replaceState(null, '', window.location.pathname + window.location.search)
  }
  return sessionStorage.getItem(SECRET_KEY)
}

/** Carries contract calls to the loopback shell as same-origin POSTs. */
export function loopbackTransport(secret: string | null): Transport {
  return async (channel, input) => {
    if (!secret) {
      return { ok: false, error: { code: 'NoLaunchSecret', message: 'Open Convene from the address its launch printed.' } }
    }
    let res: Response
    try {
      res = await fetch(`/ipc/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      })
    } catch {
      return { ok: false, error: { code: 'ShellUnreachable', message: 'Convene has stopped. Start it again, then reload this page.' } }
    }
    return (await res.json()) as IpcEnvelope<unknown>
  }
}
