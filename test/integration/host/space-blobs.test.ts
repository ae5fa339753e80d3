import { beforeAll, describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import { TID } from '@atproto/common-web'
import { useLocalNetwork, type Caller } from '../../support/local-network.js'
import { createDpopKey, fetchWithDpop, type DpopKey } from '../../support/dpop.js'

// Images for a group's spaces (issue 27 point 4): uploaded with a group credential for the
// space, served only to those who may read it, and only those a record of the space may name.
const net = useLocalNetwork()

const EVENT = 'community.lexicon.calendar.event'
const IMAGE = 'example.groups.eventImage'
const group = () => net.group('open').did
const calendar = () => `at://${group()}/space/community.lexicon.calendar/self`
const staff = () => `at://${group()}/space/example.notes/staff`
const hostUrl = (method: string) => `${net.stack.host.url}/xrpc/${method}`

interface Credential {
  grant: { accessJwt: string; pds: string }
  key: DpopKey
  state: { nonce?: string }
}

interface BlobRef {
  $type: 'blob'
  ref: { $link: string }
  mimeType: string
  size: number
}

async function credential(who: Caller, space: string): Promise<Credential> {
  const key = await createDpopKey()
  const state: { nonce?: string } = {}
  const token = await who.serviceAuth('example.groups.getGroupAuth')
  const res = await fetchWithDpop(
    key,
    hostUrl('example.groups.getGroupAuth'),
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ group: group(), space }) },
    state,
  )
  expect(res.status).toBe(200)
  return { grant: (await res.json()) as Credential['grant'], key, state }
}

async function upload(cred: Credential, space: string, bytes: Uint8Array<ArrayBuffer>, type = 'application/octet-stream') {
  const res = await fetchWithDpop(
    cred.key,
    `${cred.grant.pds}/xrpc/example.groups.uploadSpaceBlob?space=${encodeURIComponent(space)}`,
    { method: 'POST', headers: { authorization: `DPoP ${cred.grant.accessJwt}`, 'content-type': type }, body: bytes, accessToken: cred.grant.accessJwt },
    cred.state,
  )
  return { status: res.status, body: (await res.json()) as { blob: BlobRef; error?: string } }
}

async function write(cred: Credential, method: string, body: unknown) {
  const res = await fetchWithDpop(
    cred.key,
    `${cred.grant.pds}/xrpc/${method}`,
    { method: 'POST', headers: { authorization: `DPoP ${cred.grant.accessJwt}`, 'content-type': 'application/json' }, body: JSON.stringify(body), accessToken: cred.grant.accessJwt },
    cred.state,
  )
  return { status: res.status, body: (await res.json()) as { uri?: string; error?: string; message?: string } }
}

/** getSpaceBlob as `who` (service auth), or with no authorization at all. */
async function fetchBlob(who: Caller | null, space: string, cid: string): Promise<Response> {
  const headers: Record<string, string> = who ? { authorization: `Bearer ${await who.serviceAuth('example.groups.getSpaceBlob')}` } : {}
  return fetch(`${hostUrl('example.groups.getSpaceBlob')}?space=${encodeURIComponent(space)}&cid=${cid}`, { headers })
}

const png = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(64)])
const imageRecord = (image: BlobRef, event: string) => ({ $type: IMAGE, image, alt: 'The picnic blanket', event, createdAt: new Date().toISOString() })

let admin: Credential
let owner: Credential

beforeAll(async () => {
  const made = await net.as('owner').call('example.groups.createSpace', {
    body: { group: group(), type: 'community.lexicon.calendar', skey: 'self', name: 'Calendar', readableBy: ['owner', 'admin', 'moderator', 'member'], credentialScopes: [{ role: 'owner', scopes: ['*'] }, { role: 'admin', scopes: [EVENT, IMAGE] }] },
  })
  expect(made.status).toBe(200)
  const staffSpace = await net.as('owner').call('example.groups.createSpace', {
    body: { group: group(), type: 'example.notes', skey: 'staff', name: 'Staff notes', readableBy: ['owner', 'admin'], credentialScopes: [{ role: 'owner', scopes: ['*'] }] },
  })
  expect(staffSpace.status, JSON.stringify(staffSpace.body)).toBe(200)
  admin = await credential(net.as('admin'), calendar())
  owner = await credential(net.as('owner'), staff())
})

/** An image uploaded to the calendar and an image record showing it, as a moderation subject. */
async function imageShownByRecord() {
  const up = await upload(admin, calendar(), png())
  expect(up.status, JSON.stringify(up.body)).toBe(200)
  const event = `${calendar()}/${group()}/${EVENT}/${TID.nextStr()}`
  const put = await write(admin, 'com.atproto.space.createRecord', { space: calendar(), repo: group(), collection: IMAGE, record: imageRecord(up.body.blob, event) })
  expect(put.status, JSON.stringify(put.body)).toBe(200)
  return { up, cid: up.body.blob.ref.$link, event, put, subject: { $type: 'example.groups.defs#subjectRecord', uri: put.body.uri } }
}

describe('images for a space', () => {
  it('takes an image from a group credential, a record names it, and a reader of the space gets it back as it was', async () => {
    const bytes = png()
    // The declared type is not trusted: the bytes say PNG.
    const up = await upload(admin, calendar(), bytes, 'text/html')
    expect(up.status, JSON.stringify(up.body)).toBe(200)
    expect(up.body.blob).toMatchObject({ $type: 'blob', mimeType: 'image/png', size: bytes.length })
    const event = `${calendar()}/${group()}/${EVENT}/${TID.nextStr()}`
    const put = await write(admin, 'com.atproto.space.createRecord', { space: calendar(), repo: group(), collection: IMAGE, record: imageRecord(up.body.blob, event) })
    expect(put.status, JSON.stringify(put.body)).toBe(200)

    const served = await fetchBlob(net.caller('member'), calendar(), up.body.blob.ref.$link)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes)
  })

  it('refuses what is not an image, and an image over 1,000,000 bytes, as the caller’s mistake (400)', async () => {
    const script = await upload(admin, calendar(), new Uint8Array(Buffer.from('<script>alert(1)</script>')), 'image/png')
    expect(script).toMatchObject({ status: 400, body: { error: 'InvalidBlobType' } })
    const big = new Uint8Array(1_000_001)
    big.set([0x89, 0x50, 0x4e, 0x47])
    const tooBig = await upload(admin, calendar(), big, 'image/png')
    expect(tooBig.status).toBe(400)
    expect(tooBig.body.error).toBe('BlobTooLarge')
  })

  it('refuses an upload for a space the credential is not for', async () => {
    const res = await upload(admin, staff(), png())
    expect(res).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('serves a space’s image to its readers only: not to a member whose roles may not read it, an outsider, or no one signed in', async () => {
    const up = await upload(owner, staff(), png())
    expect(up.status, JSON.stringify(up.body)).toBe(200)
    const cid = up.body.blob.ref.$link
    expect((await fetchBlob(net.caller('admin'), staff(), cid)).status).toBe(200)
    for (const who of ['member', 'outsider'] as const) {
      const res = await fetchBlob(net.caller(who), staff(), cid)
      expect(res.status, who).toBe(400)
      expect(await res.json(), who).toMatchObject({ error: 'Forbidden' })
    }
    const anonymous = await fetchBlob(null, staff(), cid)
    expect(anonymous.status).toBe(401)
    // Nor is it served under another space's name, whose readers differ.
    const elsewhere = await fetchBlob(net.caller('member'), calendar(), cid)
    expect(elsewhere.status).toBe(400)
    expect(await elsewhere.json()).toMatchObject({ error: 'BlobNotFound' })
  })

  it('refuses a record naming an image not uploaded for its space', async () => {
    const other = await upload(owner, staff(), png())
    expect(other.status).toBe(200)
    const event = `${calendar()}/${group()}/${EVENT}/${TID.nextStr()}`
    const res = await write(admin, 'com.atproto.space.putRecord', { space: calendar(), repo: group(), collection: IMAGE, rkey: TID.nextStr(), record: imageRecord(other.body.blob, event) })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: 'InvalidRequest' })
    expect(res.body.message).toMatch(/not uploaded for this space/)
  })
  it('stops serving an image to members once a moderator takes down the record that shows it; moderators still get it', async () => {
    const { cid, subject } = await imageShownByRecord()
    expect((await fetchBlob(net.caller('member'), calendar(), cid)).status).toBe(200)
    expect((await net.caller('member').call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'com.atproto.moderation.defs#reasonSpam', reason: 'Not our picture' } })).status).toBe(200)
    const down = await net.caller('moderator').call('example.groups.emitModerationEvent', { body: { group: group(), subject, event: 'takedown' } })
    expect(down.status, JSON.stringify(down.body)).toBe(200)

    const hidden = await fetchBlob(net.caller('member'), calendar(), cid)
    expect(hidden.status).toBe(400)
    expect(await hidden.json()).toMatchObject({ error: 'BlobNotFound' })
    expect((await fetchBlob(net.caller('moderator'), calendar(), cid)).status).toBe(200)
    expect((await fetchBlob(net.caller('admin'), calendar(), cid)).status).toBe(200)

    // Reversed, it is served again.
    expect((await net.caller('moderator').call('example.groups.emitModerationEvent', { body: { group: group(), subject, event: 'reverseTakedown' } })).status).toBe(200)
    expect((await fetchBlob(net.caller('member'), calendar(), cid)).status).toBe(200)
  })

  it('keeps a taken-down record’s image hidden when another record quotes it or the record is deleted, until the takedown is reversed', async () => {
    const { up, cid, put, subject, event } = await imageShownByRecord()
    expect((await net.caller('member').call('example.groups.createReport', { body: { group: group(), subject, reasonType: 'com.atproto.moderation.defs#reasonSpam' } })).status).toBe(200)
    expect((await net.caller('moderator').call('example.groups.emitModerationEvent', { body: { group: group(), subject, event: 'takedown' } })).status).toBe(200)

    // A new record naming the same image does not bring it back.
    const quoted = await write(admin, 'com.atproto.space.createRecord', { space: calendar(), repo: group(), collection: IMAGE, record: imageRecord(up.body.blob, event) })
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200)
    expect((await fetchBlob(net.caller('member'), calendar(), cid)).status).toBe(400)
    // Nor does deleting the record taken down.
    const rkey = put.body.uri!.split('/').pop()
    expect((await write(admin, 'com.atproto.space.deleteRecord', { space: calendar(), repo: group(), collection: IMAGE, rkey })).status).toBe(200)
    expect((await fetchBlob(net.caller('member'), calendar(), cid)).status).toBe(400)
    expect((await fetchBlob(net.caller('moderator'), calendar(), cid)).status).toBe(200)

    // The takedown reversed, the image the other record names is served again.
    expect((await net.caller('moderator').call('example.groups.emitModerationEvent', { body: { group: group(), subject, event: 'reverseTakedown' } })).status).toBe(200)
    expect((await fetchBlob(net.caller('member'), calendar(), cid)).status).toBe(200)
  })
})
