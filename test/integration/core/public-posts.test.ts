import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { type CoreHarness, eventually, useSignedInCore } from '../../support/core-harness.js'

/**
 * Posting as the group (issue 28 point 2), from the app's core against the real local
 * network: a post written with a group credential lands in the group's public repository
 * on its host, where any atproto reader finds it; a role without `repo.write` is refused.
 */
const net = useLocalNetwork()
let app: CoreHarness
let owner: string
const groupDid = () => net.group('open').did
useSignedInCore(net, { groups: ['open'] }, (signedIn) => ({ app, owner } = signedIn))

const settled = () => eventually(async () => (await app.call('outbox.list', {})).every((o) => o.state !== 'queued' && o.state !== 'sending'))
/** The group's posts as any reader sees them: the host's public listRecords, no sign-in. */
async function postsOnHost() {
  const url = new URL('/xrpc/com.atproto.repo.listRecords', net.stack.host.url)
  url.search = new URLSearchParams({ repo: groupDid(), collection: 'app.bsky.feed.post' }).toString()
  const res = await fetch(url)
  return res.ok ? ((await res.json()) as { records: { uri: string; value: { text: string; embed?: { external?: { uri: string } } } }[] }).records : []
}

describe('posting as the group', () => {
  it('announces an event: the post is in the group’s public repository, with its link card, and listed in the app', async () => {
    // The credential is got for the calendar space: the first event makes it.
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'event.create', event: { name: 'Harbour walk', startsAt: new Date(Date.now() + 86_400_000).toISOString() } } })
    await settled()
    await app.call('groups.act', {
      accountDid: owner,
      groupDid: groupDid(),
      action: { kind: 'post.create', text: 'Harbour walk on Sunday at ten: all welcome', link: { uri: 'https://tickets.example/harbour', title: 'Harbour walk' } },
    })
    await settled()
    // Sent: nothing about it is left in the pending changes.
    expect((await app.call('outbox.list', {})).filter((o) => o.kind === 'post.create')).toEqual([])
    const posts = await postsOnHost()
    expect(posts.map((p) => p.value.text)).toContain('Harbour walk on Sunday at ten: all welcome')
    expect(posts.find((p) => p.value.text.startsWith('Harbour walk'))!.value.embed?.external?.uri).toBe('https://tickets.example/harbour')
    const listed = await app.call('groups.publicPosts', { accountDid: owner, groupDid: groupDid() })
    expect(listed[0]).toMatchObject({ text: 'Harbour walk on Sunday at ten: all welcome', link: { uri: 'https://tickets.example/harbour', title: 'Harbour walk' } })
    expect(listed[0]!.uri).toMatch(new RegExp(`^at://${groupDid()}/app.bsky.feed.post/`))
  })

  it('posts a picture: uploaded with the same credential, named by the post, served by the host', async () => {
    // A 1x1 PNG.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'post.create', text: 'The view from the pier', image: { data: png, mimeType: 'image/png', alt: 'The harbour at dawn' } } })
    await settled()
    const post = (await postsOnHost()).find((p) => p.value.text === 'The view from the pier') as unknown as { value: { embed: { $type: string; images: { alt: string; image: { ref: { $link: string }; mimeType: string } }[] } } }
    expect(post.value.embed).toMatchObject({ $type: 'app.bsky.embed.images', images: [{ alt: 'The harbour at dawn', image: { mimeType: 'image/png' } }] })
    const blob = new URL('/xrpc/com.atproto.sync.getBlob', net.stack.host.url)
    blob.search = new URLSearchParams({ did: groupDid(), cid: post.value.embed.images[0]!.image.ref.$link }).toString()
    const res = await fetch(blob)
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(png, 'base64'))).toBe(true)
  })

  it('pins a post to the group’s public profile, keeping the rest of the profile', async () => {
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'group.configure', description: 'Walks by the water' } })
    await settled()
    const [post] = await app.call('groups.publicPosts', { accountDid: owner, groupDid: groupDid() })
    expect(post!.pinned).toBe(false)
    await app.call('groups.act', { accountDid: owner, groupDid: groupDid(), action: { kind: 'post.pin', post: { uri: post!.uri, cid: post!.cid } } })
    await settled()
    const url = new URL('/xrpc/com.atproto.repo.getRecord', net.stack.host.url)
    url.search = new URLSearchParams({ repo: groupDid(), collection: 'app.bsky.actor.profile', rkey: 'self' }).toString()
    const profile = ((await (await fetch(url)).json()) as { value: Record<string, unknown> }).value
    expect(profile).toMatchObject({ $type: 'app.bsky.actor.profile', description: 'Walks by the water', pinnedPost: { uri: post!.uri, cid: post!.cid } })
    expect((await app.call('groups.publicPosts', { accountDid: owner, groupDid: groupDid() }))[0]!.pinned).toBe(true)
  })

  it('refuses, in plain words, a member whose role may not post as the group', async () => {
    const member = await app.signIn('member')
    await app.call('groups.add', { accountDid: member, ref: groupDid() })
    const before = (await postsOnHost()).length
    await app.call('groups.act', { accountDid: member, groupDid: groupDid(), action: { kind: 'post.create', text: 'Not mine to say' } })
    const refused = await eventually(async () => (await app.call('outbox.list', {})).find((o) => o.accountDid === member && o.kind === 'post.create' && (o.state === 'conflict' || o.state === 'failed')))
    expect(refused.detail).toMatch(/post as the group|may not/)
    expect((await postsOnHost()).length).toBe(before)
  })
})
