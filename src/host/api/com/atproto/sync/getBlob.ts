import { InvalidRequestError } from '@atproto/xrpc-server'
import type { RegisterMethod } from '../../../registrar.js'
import { readBlob } from '../../../../repo/blobs.js'
import { requireRepoServed } from '../../../../repo/takedown.js'

/**
 * An image of a group's public repo, by CID (public, no auth), with headers that keep a
 * browser from treating it as anything but an image.
 */
const register: RegisterMethod = (server, ctx) => {
  server.com.atproto.sync.getBlob({
    handler: async ({ params }) => {
      await requireRepoServed(ctx.db, params.did)
      const blob = await readBlob(ctx.db, params.did, params.cid)
      if (!blob) throw new InvalidRequestError(`No blob ${params.cid} in ${params.did}`, 'BlobNotFound')
      return {
        encoding: blob.mimeType,
        buffer: Buffer.from(blob.content),
        headers: { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" },
      }
    },
  })
}
export default register
