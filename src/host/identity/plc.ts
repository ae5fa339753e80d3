import { Secp256k1Keypair } from '@atproto/crypto'
import { didForCreateOp, signOperation } from '@did-plc/lib'
import { createTrustedFetch } from '../../node/safe-fetch.js'

/** For the operator's PLC directory only: see createTrustedFetch. */
const plcFetch = createTrustedFetch()

export interface PlcService {
  type: string
  endpoint: string
}

/** The `#groups` service entry every DID this host serves carries. */
export const GROUPS_SERVICE_ID = 'groups'
export const GROUPS_SERVICE_TYPE = 'ExampleGroupsHost'

/**
 * Registers a new did:plc whose document names `services`. The PLC library signs and
 * hashes the genesis operation; we only choose its contents. The operation is sent with
 * the host's fetch for the operator's PLC (time and size capped, no redirects), not the
 * library's client, which follows redirects and waits for ever.
 */
export async function mintPlcDid(opts: {
  plcUrl: string
  rotationKey: Secp256k1Keypair
  signingKey: Secp256k1Keypair
  handle?: string
  services: Record<string, PlcService>
}): Promise<string> {
  const op = await signOperation(
    {
      type: 'plc_operation',
      rotationKeys: [opts.rotationKey.did()],
      verificationMethods: { atproto: opts.signingKey.did() },
      alsoKnownAs: opts.handle ? [`at://${opts.handle}`] : [],
      services: opts.services,
      prev: null,
    },
    opts.rotationKey,
  )
  const did = await didForCreateOp(op)
  const res = await plcFetch(`${opts.plcUrl.replace(/\/$/, '')}/${encodeURIComponent(did)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(op),
    redirect: 'error',
  })
  const answer = await res.text()
  if (!res.ok) throw new Error(`The PLC directory answered ${res.status}: ${answer.slice(0, 300)}`)
  return did
}

/** A key's private bytes, to be sealed before storing (src/host/secrets). */
export const keyToBytes = async (key: Secp256k1Keypair) => Buffer.from(await key.export())

export const keyFromBytes = (bytes: Uint8Array) => Secp256k1Keypair.import(bytes, { exportable: true })
