import fs from 'node:fs'
import http from 'node:http'
import { Secp256k1Keypair } from '@atproto/crypto'
import { PDS, envToCfg, envToSecrets, type ServerEnvironment } from '@atproto/pds'
import { randomBytes } from 'node:crypto'
import { listenOn, closeServer } from '../node/listen.js'
import { startPdsSpaces } from './pds-spaces/index.js'

export interface RunningPds {
  /** The address the PDS serves on (loopback). */
  url: string
  /** The PDS's own idea of its URL: `http://localhost:PORT` is how it names itself in
   * DID documents and as OAuth issuer (it only allows plain http for `localhost`). */
  publicUrl: string
  pds: PDS
  /** Points lexicon resolution at one DID's repo (PDS_LEXICON_AUTHORITY_DID). */
  setLexiconAuthority(did: string): void
  close(): Promise<void>
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

/**
 * Starts the real `@atproto/pds` on loopback with its data in `dataDirectory`.
 * Handles live under `.test`, as in atproto's own dev network.
 */
export async function startPds(opts: {
  port: number
  plcUrl: string
  dataDirectory: string
}): Promise<RunningPds> {
  fs.mkdirSync(opts.dataDirectory, { recursive: true })
  const rotationKey = await Secp256k1Keypair.create({ exportable: true })
  const env: ServerEnvironment = {
    devMode: true,
    port: opts.port,
    hostname: 'localhost',
    serviceName: 'Convene local PDS',
    dataDirectory: opts.dataDirectory,
    blobstoreDiskLocation: `${opts.dataDirectory}/blobs`,
    didPlcUrl: opts.plcUrl,
    serviceHandleDomains: ['.test'],
    recoveryDidKey: (await Secp256k1Keypair.create()).did(),
    plcRotationKeyK256PrivateKeyHex: hex(await rotationKey.export()),
    // Fresh per start: these secrets protect only this throwaway network.
    jwtSecret: randomBytes(32).toString('hex'),
    adminPassword: randomBytes(16).toString('hex'),
    dpopSecret: randomBytes(32).toString('hex'),
    inviteRequired: false,
    // The local network has no AppView or moderation service; these are never called.
    bskyAppViewUrl: 'https://appview.invalid',
    bskyAppViewDid: 'did:example:invalid',
    modServiceUrl: 'https://moderation.invalid',
    modServiceDid: 'did:example:invalid',
    // The PDS must fetch from loopback peers (PLC, the group host).
    disableSsrfProtection: true,
    crawlers: [],
  }
  const cfg = envToCfg(env)
  const pds = await PDS.create(cfg, envToSecrets(env))
  // The released PDS has no com.atproto.space.* yet; the local network's PDS gains them.
  const spaces = await startPdsSpaces(pds, { dataDirectory: opts.dataDirectory })
  // PDS.start() listens on every interface; do what it does, bound to loopback.
  await pds.ctx.sequencer.start()
  const server = await listenOn(http.createServer(spaces.listener(pds.app)), opts.port)
  server.keepAliveTimeout = 90_000
  pds.server = server

  return {
    url: `http://127.0.0.1:${opts.port}`,
    publicUrl: cfg.service.publicUrl,
    pds,
    setLexiconAuthority(did) {
      // Same field PDS_LEXICON_AUTHORITY_DID fills; the PDS's resolver reads it on
      // every resolution, and the authority's DID only exists once the PDS is up.
      pds.ctx.cfg.lexicon.didAuthority = did as `did:${string}:${string}`
    },
    async close() {
      await closeServer(server)
      await pds.ctx.destroy()
      await spaces.close()
    },
  }
}
