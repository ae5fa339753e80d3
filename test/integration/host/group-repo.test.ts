import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readCarWithRoot, verifyCommitSig, verifyRepoCar, type Commit } from '@atproto/repo'
import { cborDecode } from '@atproto/lex-cbor'
import { Firehose } from '@atproto/sync'
import type { Event } from '@atproto/sync'
import { useLocalNetwork, xrpc, type Caller } from '../../support/local-network.js'
import { createDpopKey, fetchWithDpop, type DpopKey } from '../../support/dpop.js'
// The stock IdResolver with a fetch that may reach the local network's PLC on loopback.
import { createIdResolver } from '../../../src/node/id-resolver.js'
import { hostKeyFile } from '../../support/host-db.js'
import { REPO_ROOT } from '../../../src/stack/stack.js'

/**
 * The group's public repo (issue 28 point 1), read as any atproto consumer reads a PDS:
 * a group credential writes a post; the CAR of getRepo verifies against the signing key
 * in the group's DID document; @atproto/sync's firehose, pointed at the host, sees the
 * commit; the public reads answer; a collection outside the grant is refused.
 */
const net = useLocalNetwork()

const POST = 'app.bsky.feed.post'
const group = () => net.group('open').did
const calendar = () => `at://${group()}/space/community.lexicon.calendar/self`

interface Credential {
  grant: { accessJwt: string; pds: string; repoCollections: string[] }
  key: DpopKey
  state: { nonce?: string }
}

async function credential(who: Caller): Promise<Credential> {
  const key = await createDpopKey()
  const state: { nonce?: string } = {}
  const token = await who.serviceAuth('example.groups.getGroupAuth')
  const res = await fetchWithDpop(
    key,
    `${net.stack.host.url}/xrpc/example.groups.getGroupAuth`,
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ group: group(), space: calendar() }) },
    state,
  )
  const grant = (await res.json()) as Credential['grant']
  expect(res.status, JSON.stringify(grant)).toBe(200)
  return { grant, key, state }
}

async function write(cred: Credential, method: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetchWithDpop(
    cred.key,
    `${cred.grant.pds}/xrpc/${method}`,
    { method: 'POST', headers: { authorization: `DPoP ${cred.grant.accessJwt}`, 'content-type': 'application/json' }, body: JSON.stringify(body), accessToken: cred.grant.accessJwt },
    cred.state,
  )
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const post = (text: string) => ({ $type: POST, text, createdAt: new Date().toISOString() })

let admin: Credential
let firehose: Firehose
const seen: Event[] = []
const firehoseErrors: Error[] = []

beforeAll(async () => {
  const res = await net.as('owner').call('example.groups.createSpace', {
    body: {
      group: group(),
      type: 'community.lexicon.calendar',
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [{ role: 'owner', scopes: ['*'] }, { role: 'admin', scopes: ['community.lexicon.calendar.event'] }],
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  admin = await credential(net.as('admin'))
  firehose = new Firehose({
    service: net.stack.host.url.replace(/^http/, 'ws'),
    idResolver: createIdResolver(net.stack.plc),
    handleEvent: (evt) => void seen.push(evt),
    onError: (err) => void firehoseErrors.push(err),
    unauthenticatedHandles: true,
  })
  void firehose.start()
  // The stream starts at the next commit: give the socket a moment to open first.
  await new Promise((r) => setTimeout(r, 500))
})

afterAll(async () => {
  await firehose?.destroy()
})

/**
 * What a new subscription replays from the first frame the host keeps, up to and including
 * a profile commit `mark` makes now in another group's repo named `marker`: frames come in
 * order, so once the mark arrives everything before it has.
 */
async function replayFromStart(markerGroup: string, marker: string, mark: () => Promise<void>): Promise<Event[]> {
  const got: Event[] = []
  const isMark = (e: Event) => e.did === markerGroup && 'record' in e && (e.record as { displayName?: string }).displayName === marker
  const replay = new Firehose({
    service: net.stack.host.url.replace(/^http/, 'ws'),
    idResolver: createIdResolver(net.stack.plc),
    handleEvent: (evt) => void got.push(evt),
    onError: (err) => void firehoseErrors.push(err),
    unauthenticatedHandles: true,
    getCursor: async () => 0,
  })
  void replay.start()
  try {
    await mark()
    await expect.poll(() => got.some(isMark), { timeout: 10_000 }).toBe(true)
    return got
  } finally {
    await replay.destroy()
  }
}

describe("the group's public repo", () => {
  let uri = ''
  let cid = ''

  it('grants owners and admins the public repo collections', () => {
    expect(admin.grant.repoCollections).toEqual(['app.bsky.feed.post', 'app.bsky.actor.profile', 'app.bsky.feed.threadgate'])
  })

  it('lets a group credential write a post as the group', async () => {
    const res = await write(admin, 'com.atproto.repo.createRecord', { repo: group(), collection: POST, record: post('Picnic on Saturday!') })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    uri = res.body.uri as string
    cid = res.body.cid as string
    expect(uri).toMatch(new RegExp(`^at://${group()}/${POST}/[a-z2-7]{13}$`))
    expect(res.body.commit).toMatchObject({ cid: expect.any(String), rev: expect.any(String) })
  })

  it('logs the post as a change the audit log says the admin made', async () => {
    const log = await net.as('owner').call<{ entries: { kind: string; subject: string; actor?: string }[] }>('example.groups.listAuditLog', { params: { group: group() } })
    expect(log.status, JSON.stringify(log.body)).toBe(200)
    expect(log.body.entries).toContainEqual(expect.objectContaining({ kind: 'record.created', subject: uri, actor: net.as('admin').account.did }))
  })

  it('serves a CAR that verifies against the signing key in the group’s DID document', async () => {
    const key = await createIdResolver(net.stack.plc).did.resolveAtprotoKey(group())
    const res = await fetch(`${net.stack.host.url}/xrpc/com.atproto.sync.getRepo?did=${encodeURIComponent(group())}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/vnd.ipld.car')
    const car = new Uint8Array(await res.arrayBuffer())
    const verified = await verifyRepoCar(car, group(), key)
    const rkey = uri.split('/').pop()!
    expect(verified.creates.map((c) => `${c.collection}/${c.rkey}`)).toContain(`${POST}/${rkey}`)
    // And by hand: the root block is a commit the group's key signed.
    const { root, blocks } = await readCarWithRoot(car)
    const commit = cborDecode(blocks.get(root)!) as unknown as Commit
    expect(commit.did).toBe(group())
    expect(await verifyCommitSig(commit, key)).toBe(true)
  })

  it('shows the commit to a firehose consumer, verified', async () => {
    await expect.poll(() => seen.find((e) => e.event === 'create' && e.uri.toString() === uri), { timeout: 10_000 }).toBeTruthy()
    const evt = seen.find((e) => e.event === 'create' && e.uri.toString() === uri)!
    expect(evt).toMatchObject({ did: group(), collection: POST, record: { text: 'Picnic on Saturday!' } })
    expect(firehoseErrors).toEqual([])
  })

  it('answers getLatestCommit and listRepos with that commit', async () => {
    const latest = await xrpc<{ cid: string; rev: string }>(net.stack.host.url, 'com.atproto.sync.getLatestCommit', { params: { did: group() } })
    expect(latest.status).toBe(200)
    const repos = await xrpc<{ repos: { did: string; head: string }[] }>(net.stack.host.url, 'com.atproto.sync.listRepos')
    expect(repos.body.repos).toContainEqual(expect.objectContaining({ did: group(), head: latest.body.cid }))
  })

  it('answers describeRepo, getRecord and listRecords without credentials', async () => {
    const described = await xrpc<{ did: string; handle: string; collections: string[]; handleIsCorrect: boolean }>(net.stack.host.url, 'com.atproto.repo.describeRepo', { params: { repo: group() } })
    expect(described.status, JSON.stringify(described.body)).toBe(200)
    expect(described.body).toMatchObject({ did: group(), handle: net.group('open').handle, collections: [POST], handleIsCorrect: true })
    const rkey = uri.split('/').pop()!
    const got = await xrpc<{ uri: string; cid: string; value: { text: string } }>(net.stack.host.url, 'com.atproto.repo.getRecord', { params: { repo: group(), collection: POST, rkey } })
    expect(got.body).toMatchObject({ uri, cid, value: { text: 'Picnic on Saturday!' } })
    const listed = await xrpc<{ records: { uri: string }[] }>(net.stack.host.url, 'com.atproto.repo.listRecords', { params: { repo: group(), collection: POST } })
    expect(listed.body.records.map((r) => r.uri)).toEqual([uri])
    const missing = await xrpc(net.stack.host.url, 'com.atproto.repo.getRecord', { params: { repo: group(), collection: POST, rkey: '3zzzzzzzzzzzz' } })
    expect(missing).toMatchObject({ status: 400, body: { error: 'RecordNotFound' } })
  })

  it('serves one record with its proof as a CAR', async () => {
    const rkey = uri.split('/').pop()!
    const res = await fetch(`${net.stack.host.url}/xrpc/com.atproto.sync.getRecord?did=${encodeURIComponent(group())}&collection=${POST}&rkey=${rkey}`)
    expect(res.status).toBe(200)
    const { root } = await readCarWithRoot(new Uint8Array(await res.arrayBuffer()))
    const latest = await xrpc<{ cid: string }>(net.stack.host.url, 'com.atproto.sync.getLatestCommit', { params: { did: group() } })
    expect(root.toString()).toBe(latest.body.cid)
  })

  it('refuses, with a reason, a collection the grant does not include', async () => {
    const res = await write(admin, 'com.atproto.repo.createRecord', {
      repo: group(),
      collection: 'app.bsky.graph.follow',
      record: { $type: 'app.bsky.graph.follow', subject: group(), createdAt: new Date().toISOString() },
    })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: 'Forbidden', message: expect.stringContaining('app.bsky.graph.follow') })
  })

  it('refuses a record whose $type is not its collection', async () => {
    const res = await write(admin, 'com.atproto.repo.createRecord', { repo: group(), collection: POST, record: { $type: 'app.bsky.actor.profile' } })
    expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
  })

  it('puts the profile, applies several writes in one commit, and deletes', async () => {
    const put = await write(admin, 'com.atproto.repo.putRecord', {
      repo: group(),
      collection: 'app.bsky.actor.profile',
      rkey: 'self',
      record: { $type: 'app.bsky.actor.profile', displayName: 'Picnickers' },
    })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    const applied = await write(admin, 'com.atproto.repo.applyWrites', {
      repo: group(),
      writes: [
        { $type: 'com.atproto.repo.applyWrites#create', collection: POST, value: post('second') },
        { $type: 'com.atproto.repo.applyWrites#delete', collection: POST, rkey: uri.split('/').pop() },
      ],
    })
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    const listed = await xrpc<{ records: { value: { text: string } }[] }>(net.stack.host.url, 'com.atproto.repo.listRecords', { params: { repo: group(), collection: POST } })
    expect(listed.body.records.map((r) => r.value.text)).toEqual(['second'])
    const key = await createIdResolver(net.stack.plc).did.resolveAtprotoKey(group())
    const car = new Uint8Array(await (await fetch(`${net.stack.host.url}/xrpc/com.atproto.sync.getRepo?did=${encodeURIComponent(group())}`)).arrayBuffer())
    const verified = await verifyRepoCar(car, group(), key)
    expect(verified.creates.map((c) => c.collection).sort()).toEqual(['app.bsky.actor.profile', POST])
    await expect.poll(() => seen.filter((e) => e.event === 'delete').length, { timeout: 10_000 }).toBe(1)
    expect(firehoseErrors).toEqual([])
  })

  it('keeps the public profile in step with the group’s name and description', async () => {
    const configured = await net.as('owner').call('example.groups.configureGroup', { body: { group: group(), displayName: 'Picnic Club', description: 'We eat outside' } })
    expect(configured.status, JSON.stringify(configured.body)).toBe(200)
    const profile = await xrpc<{ value: Record<string, unknown> }>(net.stack.host.url, 'com.atproto.repo.getRecord', { params: { repo: group(), collection: 'app.bsky.actor.profile', rkey: 'self' } })
    expect(profile.body.value).toEqual({ $type: 'app.bsky.actor.profile', displayName: 'Picnic Club', description: 'We eat outside' })
  })

  it('puts the group’s avatar on its public profile, served by getBlob, and takes it off when it is removed', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(48)])
    const readProfile = async () => (await xrpc<{ value: Record<string, unknown> }>(net.stack.host.url, 'com.atproto.repo.getRecord', { params: { repo: group(), collection: 'app.bsky.actor.profile', rkey: 'self' } })).body.value
    expect((await net.as('owner').call('example.groups.configureGroup', { body: { group: group(), avatar: png.toString('base64') } })).status).toBe(200)
    const withAvatar = await readProfile()
    expect(withAvatar).toMatchObject({ displayName: 'Picnic Club', avatar: { $type: 'blob', mimeType: 'image/png', size: png.length } })
    const cid = (withAvatar.avatar as { ref: { $link: string } }).ref.$link
    const served = await fetch(`${net.stack.host.url}/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(group())}&cid=${cid}`)
    expect(served.status).toBe(200)
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png)
    expect((await net.as('owner').call('example.groups.configureGroup', { body: { group: group(), removeAvatar: true } })).status).toBe(200)
    expect(await readProfile()).toEqual({ $type: 'app.bsky.actor.profile', displayName: 'Picnic Club', description: 'We eat outside' })
    // No record names the picture now: it is no longer public.
    expect((await fetch(`${net.stack.host.url}/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(group())}&cid=${cid}`)).status).toBe(400)
  })

  it('takes an image for a post and serves it by CID once the post names it', async () => {
    // A PNG's signature, then some bytes: the host checks the type against the first bytes.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(64)])
    const uploaded = await fetchWithDpop(
      admin.key,
      `${admin.grant.pds}/xrpc/com.atproto.repo.uploadBlob`,
      { method: 'POST', headers: { authorization: `DPoP ${admin.grant.accessJwt}`, 'content-type': 'image/png' }, body: png, accessToken: admin.grant.accessJwt },
      admin.state,
    )
    const { blob } = (await uploaded.json()) as { blob: { ref: { $link: string }; mimeType: string; size: number } }
    expect(uploaded.status, JSON.stringify(blob)).toBe(200)
    expect(blob).toMatchObject({ $type: 'blob', mimeType: 'image/png', size: png.length })
    // Not public while no record names it (as a PDS keeps an upload apart until then).
    const getBlob = () => fetch(`${net.stack.host.url}/xrpc/com.atproto.sync.getBlob?did=${encodeURIComponent(group())}&cid=${blob.ref.$link}`)
    const early = await getBlob()
    expect({ status: early.status, body: await early.json() }).toMatchObject({ status: 400, body: { error: 'BlobNotFound' } })
    // A post may name only an image uploaded to the repo.
    const unknownImage = { ...blob, ref: { $link: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku' } }
    const refused = await write(admin, 'com.atproto.repo.createRecord', { repo: group(), collection: POST, record: { ...post('Not uploaded'), embed: { $type: 'app.bsky.embed.images', images: [{ alt: '', image: unknownImage }] } } })
    expect(refused).toMatchObject({ status: 400, body: { error: 'InvalidRequest', message: expect.stringContaining('was not uploaded') } })
    const made = await write(admin, 'com.atproto.repo.createRecord', {
      repo: group(),
      collection: POST,
      record: { ...post('With a picture'), embed: { $type: 'app.bsky.embed.images', images: [{ alt: 'The picnic', image: blob }] } },
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const served = await getBlob()
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png)
    const notAnImage = await fetchWithDpop(
      admin.key,
      `${admin.grant.pds}/xrpc/com.atproto.repo.uploadBlob`,
      { method: 'POST', headers: { authorization: `DPoP ${admin.grant.accessJwt}`, 'content-type': 'image/png' }, body: new Uint8Array(Buffer.from("<script>")), accessToken: admin.grant.accessJwt },
      admin.state,
    )
    expect(notAnImage.status).toBe(400)
  })

  it('an operator takes the repo down with the host running: reads answer RepoTakendown, listRepos says so, writes and firehose frames stop; restored, all is back', async () => {
    const operator = (command: string, ...extra: string[]) =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'src/host/bin.ts', command, group(), ...(net.running.hostDb ? ['--db', net.running.hostDb] : ['--data-dir', path.join(net.running.dataDir, 'host')]), '--key-file', hostKeyFile(net.running), ...extra],
        { cwd: REPO_ROOT },
      )
    const { stderr } = await operator('takedown-repo', '--reason', 'court order 42')
    expect(stderr).toContain(`took down the public repo of ${group()}`)
    const refusedReads = [
      xrpc(net.stack.host.url, 'com.atproto.sync.getRepo', { params: { did: group() } }),
      xrpc(net.stack.host.url, 'com.atproto.sync.getLatestCommit', { params: { did: group() } }),
      xrpc(net.stack.host.url, 'com.atproto.repo.describeRepo', { params: { repo: group() } }),
      xrpc(net.stack.host.url, 'com.atproto.repo.listRecords', { params: { repo: group(), collection: POST } }),
    ]
    for (const res of await Promise.all(refusedReads)) expect(res, JSON.stringify(res.body)).toMatchObject({ status: 400, body: { error: 'RepoTakendown' } })
    const listed = await xrpc<{ repos: { did: string; active: boolean; status?: string }[] }>(net.stack.host.url, 'com.atproto.sync.listRepos', { params: { limit: 1000 } })
    expect(listed.body.repos.find((r) => r.did === group())).toMatchObject({ active: false, status: 'takendown' })
    const before = seen.length
    expect(await write(admin, 'com.atproto.repo.createRecord', { repo: group(), collection: POST, record: post('Not while taken down') })).toMatchObject({ status: 400, body: { error: 'RepoTakendown' } })
    // No image is taken for it either.
    const image = await fetchWithDpop(
      admin.key,
      `${admin.grant.pds}/xrpc/com.atproto.repo.uploadBlob`,
      { method: 'POST', headers: { authorization: `DPoP ${admin.grant.accessJwt}`, 'content-type': 'image/png' }, body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...randomBytes(64)]), accessToken: admin.grant.accessJwt },
      admin.state,
    )
    expect({ status: image.status, body: await image.json() }).toMatchObject({ status: 400, body: { error: 'RepoTakendown' } })
    // The group's own business goes on: renaming it commits no profile while the repo is down.
    expect((await net.as('owner').call('example.groups.configureGroup', { body: { group: group(), displayName: 'Renamed while down' } })).status).toBe(200)
    // A relay subscribing now from the start is sent every other repo's commits, and none of
    // this one's earlier commits (each test above made some).
    const other = net.group('approval').did
    const rename = (marker: string) => async () => {
      expect((await net.as('owner').call('example.groups.configureGroup', { body: { group: other, displayName: marker } })).status).toBe(200)
    }
    const whileDown = await replayFromStart(other, 'Marked while down', rename('Marked while down'))
    expect(whileDown.filter((e) => e.did === other).length).toBeGreaterThan(0)
    expect(whileDown.filter((e) => e.did === group())).toEqual([])
    expect(seen.slice(before).filter((e) => e.did === group())).toEqual([])

    expect((await operator('takedown-repo')).stderr).toContain('was already taken down')
    expect((await operator('restore-repo')).stderr).toContain(`restored the public repo of ${group()}`)
    expect((await xrpc(net.stack.host.url, 'com.atproto.sync.getRepo', { params: { did: group() } })).status).toBe(200)
    expect((await write(admin, 'com.atproto.repo.createRecord', { repo: group(), collection: POST, record: post('Back again') })).status).toBe(200)
    await expect.poll(() => seen.slice(before).some((e) => e.did === group() && e.event === 'create'), { timeout: 10_000 }).toBe(true)
    // And its earlier commits are replayed again.
    const restored = await replayFromStart(other, 'Marked once restored', rename('Marked once restored'))
    expect(restored.filter((e) => e.did === group() && e.event === 'create').length).toBeGreaterThan(1)
  })
})
