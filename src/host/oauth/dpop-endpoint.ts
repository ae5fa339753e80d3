import type express from 'express'
import { XRPCError } from '@atproto/xrpc-server'
import type { HostContext } from '../context.js'
import { DpopProofError, type VerifiedDpopProof } from '../auth/dpop.js'
import { oauthError } from './errors.js'

/**
 * The DPoP proof of a request to the authorization server's own endpoints (PAR, token),
 * checked by the same verifier as the resource routes (nonce, replay, `htm`/`htu`), but
 * answered as RFC 9449 section 8 says for an authorization server: 400
 * `use_dpop_nonce` with `DPoP-Nonce`, or 400 `invalid_dpop_proof`.
 */
export async function authServerDpop(ctx: HostContext, req: express.Request, res: express.Response): Promise<VerifiedDpopProof> {
  try {
    return await ctx.groupAuth.dpop.verify(req, res)
  } catch (err) {
    if (err instanceof DpopProofError) throw oauthError('invalid_dpop_proof', err.message)
    if (err instanceof XRPCError && err.customErrorName === 'use_dpop_nonce') {
      res.removeHeader('WWW-Authenticate')
      throw oauthError('use_dpop_nonce', err.message)
    }
    throw err
  }
}
