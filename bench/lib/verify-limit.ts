import { performance } from 'node:perf_hooks'
import { Secp256k1Keypair, verifySignature } from '@atproto/crypto'
import { createServiceJwt } from '@atproto/xrpc-server'
import { nodeVerifySignature } from '../../src/host/auth/verify-signature.js'

/** A service-auth token taken apart as `verifyJwt` takes it: signed bytes and signature. */
interface SignedSample {
  didKey: string
  msg: Uint8Array
  sig: Uint8Array
}

export interface VerifyRate {
  name: string
  /** Verifications completed (every one must succeed). */
  count: number
  seconds: number
  perSecond: number
}

/**
 * Real ES256K service-auth tokens, as a PDS mints them (`createServiceJwt`), from a few
 * callers: what the host verifies on every authenticated request.
 */
async function samples(callers = 8, perCaller = 16): Promise<SignedSample[]> {
  const out: SignedSample[] = []
  for (let c = 0; c < callers; c++) {
    const keypair = await Secp256k1Keypair.create()
    for (let i = 0; i < perCaller; i++) {
      const token = await createServiceJwt({ iss: `did:plc:bench${c}`, aud: 'did:plc:benchhost#groups', lxm: 'example.groups.requestJoin', keypair })
      const [header, payload, sig] = token.split('.') as [string, string, string]
      out.push({ didKey: keypair.did(), msg: Buffer.from(`${header}.${payload}`, 'utf8'), sig: Buffer.from(sig, 'base64url') })
    }
  }
  return out
}

/**
 * Verifies the samples round-robin on this thread (one core) for `seconds`, at most
 * `maxCount` times, after a short warm-up; every verification must succeed.
 */
async function rate(
  name: string,
  list: SignedSample[],
  verify: (s: SignedSample) => Promise<boolean> | boolean,
  opts: { seconds: number; maxCount: number; warmup: number },
): Promise<VerifyRate> {
  for (let i = 0; i < opts.warmup; i++) if (!(await verify(list[i % list.length]!))) throw new Error(`${name}: a sound signature did not verify`)
  let count = 0
  const started = performance.now()
  const deadline = started + opts.seconds * 1000
  while (count < opts.maxCount && (count & 63 || performance.now() < deadline)) {
    if (!(await verify(list[count % list.length]!))) throw new Error(`${name}: a sound signature did not verify`)
    count++
  }
  const seconds = (performance.now() - started) / 1000
  return { name, count, seconds, perSecond: count / seconds }
}

/**
 * The machine's limit for authenticated requests: ES256K signature verifications per
 * second on one core, with Node's built-in (OpenSSL) crypto exactly as the host does it
 * (`nodeVerifySignature`), and with `@atproto/crypto`'s pure-JS verify for comparison.
 */
export async function measureVerifyLimit(opts: { seconds: number }): Promise<{ node: VerifyRate; pureJs: VerifyRate }> {
  const list = await samples()
  const node = await rate('node:crypto (OpenSSL), as the host verifies', list, (s) => nodeVerifySignature(s.didKey, s.msg, s.sig, 'ES256K'), {
    seconds: opts.seconds,
    maxCount: 200_000,
    warmup: 500,
  })
  const pureJs = await rate('@atproto/crypto verifySignature (pure JS)', list, (s) => verifySignature(s.didKey, s.msg, s.sig), {
    seconds: opts.seconds,
    maxCount: 50_000,
    warmup: 100,
  })
  return { node, pureJs }
}
