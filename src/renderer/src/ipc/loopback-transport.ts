import type { NoticeSource, Transport } from '../../../shared/ipc/api'
import { parseNotice, type Notice } from '../../../shared/ipc/contract'
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

/** How long to wait before opening the notice stream again after it dropped (the shell restarting, a sleep). */
const RECONNECT_MS = 1_000

/**
 * What a reopened stream tells the page first: notices sent while it was down are lost,
 * and they carried what changed (outbox items, summaries), so groups and outbox are read
 * again whole.
 */
const MISSED: Notice[] = [
  { name: 'groups.changed', payload: {} },
  { name: 'outbox.changed', payload: { items: [], readAll: true } },
]

/**
 * The core's change notices from the loopback shell's event stream (`POST /notices`,
 * text/event-stream). Read with fetch so the launch secret goes along; reopened after a
 * drop. Each notice is parsed through the contract before the page hears it.
 */
export function loopbackNotices(secret: string | null): NoticeSource {
  return (listener) => {
    if (!secret) return () => {}
    let stopped = false
    let controller: AbortController | null = null
    let dropped = false
    const run = async () => {
      while (!stopped) {
        controller = new AbortController()
        try {
          const res = await fetch('/notices', {
            method: 'POST',
            headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
            body: '{}',
            signal: controller.signal,
          })
          if (res.ok && res.body) {
            if (dropped) for (const notice of MISSED) listener(notice)
            await readEvents(res.body, listener)
          }
        } catch {
          // Dropped or refused: try again shortly.
        }
        dropped = true
        if (!stopped) await new Promise((r) => setTimeout(r, RECONNECT_MS))
      }
    }
    void run()
    return () => {
      stopped = true
      controller?.abort()
    }
  }
}

async function readEvents(body: ReadableStream<Uint8Array>, listener: (notice: Notice) => void) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n')
      if (!data) continue
      try {
        const notice = parseNotice(JSON.parse(data))
        if (notice) listener(notice)
      } catch {
        // Not JSON: not a notice.
      }
    }
  }
}
