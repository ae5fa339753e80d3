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
  const serviceAuth = async (method: string) => {
    const url = new URL('/xrpc/com.atproto.server.getServiceAuth', stack.pds)
    url.searchParams.set('aud', stack.host.aud)
    url.searchParams.set('lxm', method)
    return ((await (await fetch(url, { headers: { authorization: `Bearer ${accessJwt}` } })).json()) as { token: string }).token
  }
  return {
    did: account.did,
    async call(method: string, body: Record<string, unknown>) {
      return post(stack.host.url, method, body, await serviceAuth(method))
    },
    /** A host query (GET), e.g. what an organizer's list shows. */
    async query(method: string, params: Record<string, string>) {
      const url = new URL(`/xrpc/${method}`, stack.host.url)
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
      const res = await fetch(url, { headers: { authorization: `Bearer ${await serviceAuth(method)}` } })
      return { status: res.status, body: (await res.json()) as Record<string, unknown> }
    },
    /** A service-auth token for the host, for calls a test makes itself (a group credential's getGroupAuth). */
    serviceAuth,
  }
}
