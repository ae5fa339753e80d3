import { createHmac } from 'node:crypto'
import { randomToken, sameSecret } from './secrets.js'

/**
 * Refresh tokens of group sessions: `<session id>.<random>.<MAC>`, the MAC (HMAC-SHA256
 * with a secret only the host holds) over the first two parts. The database keeps only
 * the hash of a session's current token, as before; the MAC is what lets the host
 * recognise one of its own tokens that is no longer current, i.e. rotated out and now
 * used again, without keeping every token it ever issued. RFC 9700 section 4.14.2: such
 * a reuse means one of two parties holding the token is not the client, and the host
 * cannot tell which, so the whole session ends.
 */
export class RefreshTokens {
  constructor(private readonly secret: Uint8Array) {}

  issue(sessionId: string): string {
    const body = `${sessionId}.${randomToken()}`
    return `${body}.${this.mac(body)}`
  }

  /** The session a token was issued for, if this host issued it (current or not); undefined otherwise. */
  sessionOf(token: string): string | undefined {
    const parts = token.split('.')
    if (parts.length !== 3 || !parts[0]) return undefined
    const body = `${parts[0]}.${parts[1]}`
    return sameSecret(parts[2], this.mac(body)) ? parts[0] : undefined
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(`refresh-token:${body}`).digest('base64url')
  }
}
