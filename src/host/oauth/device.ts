import type express from 'express'
import { hashToken, randomToken, sameSecret } from './secrets.js'
import type { PendingRequest } from './requests.js'

const COOKIE = 'group-signin-device'

function cookieOf(req: express.Request): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=')
    if (name === COOKIE) return rest.join('=')
  }
  return undefined
}

/**
 * Ties a sign-in request to the browser that opened it. The first view of the
 * authorization page sets a random cookie (HttpOnly, SameSite=Lax so the PDS's redirect
 * back still carries it, Secure on https) and the request keeps its hash; every later
 * step (the forms, the PDS's answer) must come with it. Together with the request's
 * form token this is the pages' CSRF defence: a page elsewhere can neither read the
 * token nor send the cookie on a cross-site POST, and a person cannot be made to finish
 * a sign-in someone else started.
 */
export function claimDevice(req: express.Request, res: express.Response, request: PendingRequest, secure: boolean): string | 'other-browser' {
  const presented = cookieOf(req)
  if (request.deviceHash) {
    return presented && sameSecret(hashToken(presented), request.deviceHash) ? request.deviceHash : 'other-browser'
  }
  const device = presented && /^[A-Za-z0-9_-]{43}$/.test(presented) ? presented : randomToken()
  res.append('Set-Cookie', `${COOKIE}=${device}; Path=/oauth; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`)
  return hashToken(device)
}

/** Whether this request comes from the browser the sign-in was opened in. */
export const sameDevice = (req: express.Request, request: PendingRequest) => {
  const presented = cookieOf(req)
  return !!presented && !!request.deviceHash && sameSecret(hashToken(presented), request.deviceHash)
}
