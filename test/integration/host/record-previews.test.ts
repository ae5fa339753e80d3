import { beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'
import { createOpenSpace, groupCredential } from '../../support/group-records.js'

/**
 * The moderation queue names a reported record by what it is (issue 25 point 3): a post
 * of any collection by its text, trimmed; a deleted one as gone; one in a space the
 * moderator may not read, not at all.
 */
const net = useLocalNetwork()
const as = net.caller
const POST = 'app.bsky.feed.post'
const group = () => net.group('open').did
const record = (uri: string) => ({ $type: 'example.groups.defs#subjectRecord', uri })
const report = (uri: string, by: 'member' | 'owner' = 'member') => as(by).call('example.groups.createReport', { body: { group: group(), subject: record(uri), reasonType: 'com.atproto.moderation.defs#reasonSpam' } })

interface Listed {
  subjects: { subject: { uri?: string }; recordPreview?: { text?: string; gone?: boolean } }[]
}
const previewOf = async (uri: string) =>
  (await as('moderator').call<Listed>('example.groups.listSubjects', { params: { group: group() } })).body.subjects.find((s) => s.subject.uri === uri)?.recordPreview

let short: string
let long: string
let deleted: string
let hidden: string

beforeAll(async () => {
  const space = await createOpenSpace(as('owner'), group(), 'example.test.posts')
  const send = await groupCredential(net.stack.host.url, as('owner'), group(), space)
  const post = async (text: string) => {
    const res = await send('com.atproto.space.createRecord', { space, repo: group(), collection: POST, record: { $type: POST, text, createdAt: new Date().toISOString() } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.uri!
  }
  short = await post('Buy   cheap\nwatches here')
  long = await post(`${'word '.repeat(200)}end`)
  deleted = await post('Soon gone')
  // Reported while it was there (a report needs a record the reporter can read), then deleted.
  expect((await report(deleted)).status).toBe(200)
  const removed = await send('com.atproto.space.deleteRecord', { space, repo: group(), collection: POST, rkey: deleted.split('/').pop() })
  expect(removed.status, JSON.stringify(removed.body)).toBe(200)
  // A space only owners read: the moderator is told nothing of what is in it.
  const owners = await as('owner').call<{ uri: string }>('example.groups.createSpace', {
    body: { group: group(), type: 'example.test.private', skey: 'self', name: 'Private', readableBy: ['owner'], credentialScopes: [{ role: 'owner', scopes: ['*'] }] },
  })
  const sendPrivate = await groupCredential(net.stack.host.url, as('owner'), group(), owners.body.uri)
  const made = await sendPrivate('com.atproto.space.createRecord', { space: owners.body.uri, repo: group(), collection: POST, record: { $type: POST, text: 'Owners only', createdAt: new Date().toISOString() } })
  hidden = made.body.uri!
  for (const uri of [short, long]) expect((await report(uri)).status).toBe(200)
  expect((await report(hidden, 'owner')).status).toBe(200)
})

describe('example.groups.listSubjects: reported records as what they are', () => {
  it('shows a post by its text, whitespace folded', async () => {
    expect(await previewOf(short)).toEqual({ text: 'Buy cheap watches here' })
  })

  it('trims a long post at a word, with an ellipsis', async () => {
    const text = (await previewOf(long))!.text!
    expect(text.length).toBeLessThanOrEqual(301)
    expect(text).toMatch(/^word word .* word…$/)
  })

  it('says a deleted record is gone', async () => {
    expect(await previewOf(deleted)).toEqual({ gone: true })
  })

  it('tells nothing of a record in a space the moderator may not read', async () => {
    expect(await previewOf(hidden)).toBeUndefined()
  })
})
