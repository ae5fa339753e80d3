import type { StackAccountName, StackFile } from '../../src/shared/stack-file.js'
import { xrpc, type XrpcResult } from './local-network.js'

/**
 * A person's calls to their own PDS with a password session, as the stack's demo
 * accounts have: how member writes (`com.atproto.space.*`) are driven in tests.
 */
export class MemberPds {
  private readonly sessions = new Map<StackAccountName, string>()
  constructor(private readonly stack: () => StackFile) {}

  did(name: StackAccountName): string {
    return this.stack().accounts.find((a) => a.name === name)!.did
  }

  private async accessJwt(name: StackAccountName): Promise<string> {
    let jwt = this.sessions.get(name)
    if (!jwt) {
      const { handle, password } = this.stack().accounts.find((a) => a.name === name)!
      const res = await xrpc<{ accessJwt: string }>(this.stack().pds, 'com.atproto.server.createSession', { body: { identifier: handle, password } })
      if (res.status !== 200) throw new Error(`createSession failed: ${JSON.stringify(res.body)}`)
      jwt = res.body.accessJwt
      this.sessions.set(name, jwt)
    }
    return jwt
  }

  /** A query without `body`, a procedure with it. */
  async call<T = Record<string, unknown>>(name: StackAccountName, method: string, init: { params?: Record<string, string | number | undefined>; body?: unknown }): Promise<XrpcResult<T>> {
    return xrpc<T>(this.stack().pds, method, { ...init, headers: { authorization: `Bearer ${await this.accessJwt(name)}` } })
  }

  put(name: StackAccountName, w: { space: string; collection: string; rkey: string; record: Record<string, unknown> }) {
    return this.call<{ uri: string; cid: string }>(name, 'com.atproto.space.putRecord', { body: { ...w, repo: this.did(name) } })
  }

  delete(name: StackAccountName, w: { space: string; collection: string; rkey: string }) {
    return this.call(name, 'com.atproto.space.deleteRecord', { body: { ...w, repo: this.did(name) } })
  }
}
