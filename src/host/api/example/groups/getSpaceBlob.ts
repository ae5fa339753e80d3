import { InvalidRequestError } from '@atproto/xrpc-server'
import type { RegisterMethod } from '../../registrar.js'
import { serviceAuth } from '../../../auth/service-auth.js'
import { readableSpace } from '../../../spaces/readers.js'
import { blobTakenDown, readSpaceBlob } from '../../../spaces/space-blobs.js'

/**
 * An image of one of the group's spaces, for a member whose roles may read that space
 * (spaces/readers.ts: others are refused before the image is looked up), with its stored
 * type and headers that keep a browser from treating it as anything but an image. An
 * image only taken-down records name is not served to readers without `mod.read`, as
 * those records are not (spaces/record-visibility.ts): it answers as if it were not there.
 */
const register: RegisterMethod = (server, ctx) => {
  server.example.groups.getSpaceBlob({
    auth: serviceAuth(ctx),
    handler: async ({ auth, params }) => {
      const { space, reader } = await readableSpace(ctx, params.space, auth.credentials.did)
      const hidden = !reader.moderator && (await blobTakenDown(ctx.db, space.uri, params.cid))
      const blob = hidden ? null : await readSpaceBlob(ctx.db, space.uri, params.cid)
      if (!blob) throw new InvalidRequestError(`No image ${params.cid} in ${space.uri}`, 'BlobNotFound')
      return {
        encoding: blob.mimeType,
        buffer: Buffer.from(blob.content),
        headers: {
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'; sandbox",
          'content-disposition': 'inline; filename="image"',
          'cache-control': 'private, max-age=3600',
        },
      }
    },
  })
}
export default register
