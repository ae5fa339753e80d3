import type { StackAccountName, StackFile } from '../../src/shared/stack-file.js'

/**
 * Another person on the local network, acting through plain XRPC with service auth
 * from their own PDS: what happens elsewhere while the organizer uses the app.
 */
export async function asPeer(stack: StackFile, name: StackAccountName) {
  const account = stack.accounts.find((a) => a.name === name)!
  const post = async (base: string, method: string, body: unknown, token?: string) => {
    const res = await fetch(new URL(`/xrpc/${method}`, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }
  const session = await post(stack.pds, 'com.atproto.server.createSession', { identifier: account.handle, password: account.password })
  const accessJwt = session.body.accessJwt as string
  return {
    did: account.did,
    async call(method: string, body: Record<string, unknown>) {
      const url = new URL('/xrpc/com.atproto.server.getServiceAuth', stack.pds)
      url.searchParams.set('aud', stack.host.aud)
      url.searchParams.set('lxm', method)
      const minted = (await (await fetch(url, { headers: { authorization: `Bearer ${accessJwt}` } })).json()) as { token: string }
      return post(stack.host.url, method, body, minted.token)
    },
    /** A query (GET) to the group host, e.g. reading a space's records as this person. */
    async query(method: string, params: Record<string, string>) {
      const url = new URL('/xrpc/com.atproto.server.getServiceAuth', stack.pds)
      url.searchParams.set('aud', stack.host.aud)
      url.searchParams.set('lxm', method)
      const minted = (await (await fetch(url, { headers: { authorization: `Bearer ${accessJwt}` } })).json()) as { token: string }
      const res = await fetch(new URL(`/xrpc/${method}?${new URLSearchParams(params).toString()}`, stack.host.url), { headers: { authorization: `Bearer ${minted.token}` } })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    },
  }
}
