import { describe, expect, it } from 'vitest'
import type { Viewer } from '../../src/host/groups/access.js'
import { describeRepoScope, formatRepoScope, narrowRepoScopes } from '../../src/host/oauth/repo-scopes.js'

const viewer = (actions: string[]) => ({ did: 'did:plc:p', isMember: true, roles: ['x'], actions: new Set(actions), assignableVia: () => new Set() }) as unknown as Viewer

describe('repo: scopes of a group session', () => {
  it('keeps what the request asks of the collections the roles may write, with its actions', () => {
    const granted = narrowRepoScopes(viewer(['repo.write']), 'atproto repo:app.bsky.feed.post repo:app.bsky.graph.follow repo?collection=app.bsky.actor.profile&action=update')
    expect(granted.map(formatRepoScope)).toEqual(['repo:app.bsky.feed.post', 'repo:app.bsky.actor.profile?action=update'])
  })

  it('gives nothing without repo.write, or when none is asked for', () => {
    expect(narrowRepoScopes(viewer(['invite']), 'atproto repo:*')).toEqual([])
    expect(narrowRepoScopes(viewer(['repo.write']), 'atproto')).toEqual([])
  })

  it('names each in plain words on the consent page', () => {
    expect(describeRepoScope({ collection: 'app.bsky.feed.post', actions: ['create', 'update', 'delete'] })).toBe('Write, change and delete the group’s public posts')
  })
})
