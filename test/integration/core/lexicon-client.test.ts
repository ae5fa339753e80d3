import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GroupCredentials } from '@core/credentials/group-credentials.js'
import { installLogSink } from '@core/log/log.js'
import { HostClient } from '@core/xrpc/host-client.js'
import { ServiceAuthCache } from '@core/xrpc/service-auth-cache.js'
import type { StackAccountName } from '@shared/stack-file.js'
import { useLocalNetwork } from '../../support/local-network.js'
import { createHostCallFetch } from '@node/safe-fetch.js'

/**
 * The client generated from lexicons/ against the real group host: every method the
 * app calls goes through it, and every answer the reference host gives passes the
 * lexicons' checks (an answer that did not would be logged as not understood).
 */
const net = useLocalNetwork()
const logged: string[] = []
beforeAll(() => installLogSink({ write: (line) => logged.push(line) }))
afterAll(() => installLogSink(null))

function as(name: StackAccountName) {
  const auth = new ServiceAuthCache((aud, lxm) => net.as(name).serviceAuth(lxm, aud))
  const host = new HostClient({ url: net.stack.host.url, aud: net.stack.host.aud }, auth, hostCalls)
  return { host, credentials: new GroupCredentials(auth, hostCalls), did: net.as(name).did }
}
/** As the app core calls hosts (app-core.ts). */
const hostCalls = createHostCallFetch({ allowLoopbackPeers: true })
const notUnderstood = () => logged.filter((l) => l.includes('did not match the lexicon'))

describe('the generated host client against the real host', () => {
  it('reads a group and every list the app syncs, typed and checked', async () => {
    const { host } = as('owner')
    const group = net.group('approval').did
    await net.as('outsider').call('example.groups.requestJoin', { body: { group, message: 'Hello' } })

    const g = await host.query('example.groups.getGroup', { group })
    expect(g).toMatchObject({ did: group, joinPolicy: 'approval' })
    expect(g.viewer?.roles).toEqual(['owner'])
    const { requests } = await host.query('example.groups.listJoinRequests', { group, limit: 100 })
    expect(requests).toEqual([expect.objectContaining({ did: net.as('outsider').did, message: 'Hello' })])
    const { members } = await host.query('example.groups.listMembers', { group, limit: 100 })
    expect(members.map((m) => m.did)).toContain(net.as('owner').did)
    expect((await host.query('example.groups.listInvites', { group, limit: 100 })).invites).toEqual([])
    expect((await host.query('example.groups.listSubjects', { group, limit: 100, status: 'open' })).subjects).toEqual([])
    const changes = await host.query('example.groups.listChanges', { group, limit: 100 })
    expect(typeof changes.cursor).toBe('string')
    const index = await host.query('com.atproto.space.listRecords', { space: `at://${group}/space/members/self`, repo: group, collection: 'example.groups.space', limit: 100 })
    expect(Array.isArray(index.records)).toBe(true)
    expect(notUnderstood()).toEqual([])
  })

  it('sends every organizer action the app queues, and reads their answers', async () => {
    const { host } = as('owner')
    const group = net.group('approval').did
    const outsider = net.as('outsider').did
    await host.procedure('example.groups.admitMember', { group, did: outsider, decision: 'admit' })
    await host.procedure('example.groups.grantRole', { group, did: outsider, role: 'moderator' })
    await host.procedure('example.groups.revokeRole', { group, did: outsider, role: 'moderator' })
    await host.procedure('example.groups.ejectMember', { group, did: outsider, note: 'Test' })
    const invite = await host.procedure('example.groups.createInvite', { group, invitee: net.as('outsider2').did, message: 'Join us' })
    expect(invite.uri).toMatch(/^(at:\/\/|pending:)/)
    await host.procedure('example.groups.revokeInvite', { group, invitee: net.as('outsider2').did })

    const space = await host.procedure('example.groups.createSpace', {
      group,
      type: 'org.example.notes',
      skey: 'self',
      name: 'Notes',
      readableBy: ['owner', 'admin'],
      credentialScopes: [{ role: 'owner', scopes: ['org.example.note'] }],
    })
    expect(space.uri).toBe(`at://${group}/space/org.example.notes/self`)
    await host.procedure('example.groups.updateSpace', { group, space: space.uri, name: 'Team notes' })
    const rec = await host.query('com.atproto.space.getRecord', { space: `at://${group}/space/members/self`, repo: group, collection: 'example.groups.space', rkey: 'org.example.notes:self' })
    expect(rec.value).toMatchObject({ name: 'Team notes' })
    await host.procedure('example.groups.deleteSpace', { group, space: space.uri })

    // A report about a member, seen in the queue, then resolved by the owner.
    const reported = { $type: 'example.groups.defs#subjectAccount', did: net.as('member').did }
    await net.as('moderator').call('example.groups.createReport', { body: { group, subject: reported, reasonType: 'spam' } })
    const { subjects } = await host.query('example.groups.listSubjects', { group, limit: 100, status: 'open' })
    expect(subjects).toEqual([expect.objectContaining({ subject: reported, status: 'open', reportCount: 1 })])
    await host.procedure('example.groups.updateSubject', { group, subject: reported, status: 'resolved', note: 'Talked to them' })
    const created = await host.procedure('example.groups.createGroup', { handle: `lex-${Date.now().toString(36)}.groups.test`, displayName: 'Lexicon check', joinPolicy: 'open' })
    expect(created.did).toMatch(/^did:/)
    expect(notUnderstood()).toEqual([])
  })

  it('writes calendar events as the group with a credential from getGroupAuth, and leaves a group', async () => {
    const { host, credentials } = as('owner')
    const group = net.group('open').did
    const calendar = await host.procedure('example.groups.createSpace', {
      group,
      type: 'community.lexicon.calendar',
      skey: 'self',
      name: 'Calendar',
      readableBy: ['owner', 'admin', 'moderator', 'member'],
      credentialScopes: [{ role: 'owner', scopes: ['community.lexicon.calendar.event'] }],
    })
    const record = { $type: 'community.lexicon.calendar.event', name: 'Picnic', startsAt: '2026-12-01T12:00:00.000Z', createdAt: new Date().toISOString() }
    const base = { space: calendar.uri, repo: group, collection: 'community.lexicon.calendar.event', rkey: '3kabcdefghij2' }
    const made = await credentials.write(host.host, group, calendar.uri, 'com.atproto.space.createRecord', { ...base, record })
    expect(made.uri).toContain('community.lexicon.calendar.event/3kabcdefghij2')
    await credentials.write(host.host, group, calendar.uri, 'com.atproto.space.putRecord', { ...base, record: { ...record, name: 'Picnic (moved)' } })
    const { records } = await host.query('com.atproto.space.listRecords', { space: calendar.uri, repo: group, collection: 'community.lexicon.calendar.event', limit: 100 })
    expect(records.map((r) => r.value)).toEqual([expect.objectContaining({ name: 'Picnic (moved)' })])
    await credentials.write(host.host, group, calendar.uri, 'com.atproto.space.deleteRecord', base)

    const member = as('member')
    await member.host.procedure('example.groups.leaveGroup', { group })
    expect((await member.host.query('example.groups.getGroup', { group })).viewer).toEqual({ roles: [], actions: [] })
    expect(notUnderstood()).toEqual([])
  })
})
