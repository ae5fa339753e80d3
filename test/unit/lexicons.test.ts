import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { Lexicons, type LexiconDoc } from '@atproto/lexicon'

const LEXICON_DIR = fileURLToPath(new URL('../../lexicons/', import.meta.url))

function jsonFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...jsonFiles(path))
    else if (name.endsWith('.json')) out.push(path)
  }
  return out
}

type AnyDef = Record<string, unknown> & { type?: string; description?: string }
type Doc = { lexicon: number; id: string; description?: string; defs: Record<string, AnyDef> }

const files = jsonFiles(LEXICON_DIR)
const docs: { file: string; doc: Doc }[] = files.map((file) => ({
  file: relative(LEXICON_DIR, file),
  doc: JSON.parse(readFileSync(file, 'utf8')) as Doc,
}))
const byId = new Map(docs.map(({ doc }) => [doc.id, doc]))


// Methods the spec names (section 4), with their kind.
const SPEC_METHODS: Record<string, 'query' | 'procedure'> = {
  'example.groups.requestJoin': 'procedure',
  'example.groups.getJoinRequest': 'query',
  'example.groups.cancelJoinRequest': 'procedure',
  'example.groups.listJoinRequests': 'query',
  'example.groups.admitMember': 'procedure',
  'example.groups.createInvite': 'procedure',
  'example.groups.leaveGroup': 'procedure',
  'example.groups.listSubjects': 'query',
  'example.groups.getGroupAuth': 'procedure',
  'example.groups.createSpace': 'procedure',
  'com.atproto.space.putRecord': 'procedure',
  'com.atproto.space.deleteRecord': 'procedure',
  'com.atproto.space.createRecord': 'procedure',
}

// Methods decisions.md section 4 adds.
const EXTRA_METHODS: Record<string, 'query' | 'procedure'> = {
  'example.groups.getGroup': 'query',
  'example.groups.listMembers': 'query',
  'example.groups.grantRole': 'procedure',
  'example.groups.revokeRole': 'procedure',
  'example.groups.ejectMember': 'procedure',
  'example.groups.unbanMember': 'procedure',
  'example.groups.listBans': 'query',
  'example.groups.listAuditLog': 'query',
  'example.groups.putRole': 'procedure',
  'example.groups.deleteRole': 'procedure',
  'example.groups.getMemberHistory': 'query',
  'example.groups.listInvites': 'query',
  'example.groups.revokeInvite': 'procedure',
  'example.groups.updateSpace': 'procedure',
  'example.groups.deleteSpace': 'procedure',
  'example.groups.createReport': 'procedure',
  'example.groups.updateSubject': 'procedure',
  'example.groups.getSubject': 'query',
  'example.groups.emitModerationEvent': 'procedure',
  'example.groups.configureGroup': 'procedure',
  'example.groups.createGroup': 'procedure',
  'example.groups.listChanges': 'query',
  'example.groups.listMyInvites': 'query',
  'example.groups.declineInvite': 'procedure',
  'com.atproto.space.getRecord': 'query',
  'com.atproto.space.listRecords': 'query',
  'example.groups.uploadSpaceBlob': 'procedure',
  'example.groups.getSpaceBlob': 'query',
  'example.groups.setEventCapacity': 'procedure',
  'example.groups.setRsvpStanding': 'procedure',
  'example.groups.getEventStanding': 'query',
}

/** Procedures whose body is raw bytes, not JSON. */
const RAW_BODY = ['example.groups.uploadSpaceBlob']

// Spec section 7 errors each method must be able to name.
const METHOD_ERRORS: Record<string, string[]> = {
  'example.groups.requestJoin': ['AlreadyMember', 'InviteRequired', 'InvalidRequest', 'NotHosted'],
  'example.groups.cancelJoinRequest': ['RequestNotFound'],
  'example.groups.listJoinRequests': ['Forbidden'],
  'example.groups.admitMember': ['RequestNotFound', 'Forbidden', 'NotAssignable'],
  'example.groups.createInvite': ['Forbidden', 'AlreadyMember'],
  'example.groups.leaveGroup': ['NotAMember', 'LastConfigurer'],
  'example.groups.listSubjects': ['Forbidden'],
  'example.groups.getGroupAuth': ['Forbidden', 'DpopRequired', 'InvalidDpop', 'SpaceNotFound'],
  'example.groups.createSpace': ['Forbidden', 'InvalidRequest'],
  'example.groups.grantRole': ['NotAssignable', 'NotAMember', 'Forbidden'],
  'example.groups.revokeRole': ['NotAssignable', 'NotAMember', 'Forbidden', 'LastConfigurer'],
  'example.groups.ejectMember': ['NotAssignable', 'NotAMember', 'LastConfigurer'],
  'example.groups.revokeInvite': ['InviteNotFound'],
  'example.groups.updateSpace': ['SpaceNotFound', 'WellKnownSpace'],
  'example.groups.deleteSpace': ['SpaceNotFound', 'WellKnownSpace'],
  'example.groups.updateSubject': ['SubjectNotFound'],
  'example.groups.getSubject': ['SubjectNotFound', 'Forbidden'],
  'example.groups.emitModerationEvent': ['SubjectNotFound', 'Forbidden', 'NotAssignable'],
  'example.groups.configureGroup': ['Forbidden'],
  'example.groups.notifyWrite': ['Forbidden', 'NotHosted', 'InvalidRequest'],
}

const RECORDS: Record<string, string> = {
  'example.groups.acceptance': 'literal:self',
  'example.groups.space': 'any',
  'example.groups.eventImage': 'tid',
  'community.lexicon.calendar.event': 'tid',
  'example.groups.rsvp': 'any',
  'community.lexicon.calendar.rsvp': 'tid',
  'example.groups.attendance': 'any',
}

// Copied unchanged from lexicon.community and bluesky-social/atproto (lexicons/community/lexicon/README.md):
// they are as published, so the house rules for our own lexicons (descriptions) are not asked of them.
const VENDORED = ['community.lexicon.', 'com.atproto.repo.', 'com.atproto.sync.']
const isVendored = (id: string) => VENDORED.some((prefix) => id.startsWith(prefix))

const PERMISSION_SETS = ['example.groups.basePermissions', 'example.groups.calendarPermissions']

function buildLexicons(): Lexicons {
  return new Lexicons(docs.map(({ doc }) => doc as unknown as LexiconDoc))
}

// Every {type: 'ref'} and {type: 'union'} target in a document, as absolute URIs.
function refsOf(doc: Doc): string[] {
  const out: string[] = []
  const abs = (r: string) => (r.startsWith('#') ? `${doc.id}${r}` : r)
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit)
    if (!v || typeof v !== 'object') return
    const o = v as Record<string, unknown>
    if (o.type === 'ref' && typeof o.ref === 'string') out.push(abs(o.ref))
    if (o.type === 'union' && Array.isArray(o.refs)) out.push(...(o.refs as string[]).map(abs))
    Object.values(o).forEach(visit)
  }
  visit(doc.defs)
  return out
}

// The part of an NSID up to and including its last dot: a permission set may
// only name NSIDs that start with this (see IncludeScope.isParentAuthorityOf in
// @atproto/oauth-scopes); others are dropped silently when the set is expanded.
function authorityPrefix(nsid: string): string {
  return nsid.slice(0, nsid.lastIndexOf('.') + 1)
}

describe('lexicons', () => {
  it('finds lexicon files', () => {
    expect(docs.length).toBeGreaterThan(30)
  })

  it.each(docs.map((d) => [d.file, d.doc] as const))('%s: path matches id and has descriptions', (file, doc) => {
    expect(doc.lexicon).toBe(1)
    expect(file.split(sep).join('/')).toBe(`${doc.id.split('.').join('/')}.json`)
    if (isVendored(doc.id)) return
    expect(typeof doc.description).toBe('string')
    if (doc.defs.main) expect(typeof doc.defs.main.description).toBe('string')
  })

  it('ids are unique', () => {
    expect(byId.size).toBe(docs.length)
  })

  it('all load into Lexicons without throwing', () => {
    expect(buildLexicons).not.toThrow()
  })

  it('every ref and union member resolves', () => {
    const lex = buildLexicons()
    for (const { doc } of docs) {
      for (const uri of refsOf(doc)) {
        expect(lex.getDef(uri), `${doc.id} -> ${uri}`).toBeDefined()
      }
    }
  })

  it('example.groups refs use the example.groups.defs#name form', () => {
    for (const { doc } of docs) {
      for (const uri of refsOf(doc)) {
        if (uri.startsWith('example.groups.') && !uri.startsWith(`${doc.id}#`)) {
          expect(uri, doc.id).toMatch(/^example\.groups\.defs#\w+$/)
        }
      }
    }
  })

  it.each(Object.entries({ ...SPEC_METHODS, ...EXTRA_METHODS }))('%s is a %s', (nsid, kind) => {
    const main = byId.get(nsid)?.defs.main
    expect(main, `missing lexicon ${nsid}`).toBeDefined()
    expect(main!.type).toBe(kind)
    expect(main!.output, `${nsid} has no output`).toBeDefined()
    if (kind === 'query') expect(main!.input).toBeUndefined()
    if (kind === 'procedure') {
      // An image upload takes the raw bytes, as com.atproto.repo.uploadBlob does.
      const encoding = RAW_BODY.includes(nsid) ? '*/*' : 'application/json'
      expect((main!.input as { encoding?: string } | undefined)?.encoding).toBe(encoding)
    }
  })

  it.each(Object.entries(METHOD_ERRORS))('%s names its errors', (nsid, expected) => {
    const errors = (byId.get(nsid)?.defs.main?.errors as { name: string }[] | undefined) ?? []
    const names = errors.map((e) => e.name)
    for (const e of expected) expect(names).toContain(e)
  })

  it.each(Object.entries(RECORDS))('%s is a record with key %s', (nsid, key) => {
    const main = byId.get(nsid)?.defs.main
    expect(main?.type).toBe('record')
    expect(main?.key).toBe(key)
  })

  it('shared defs exist', () => {
    const lex = buildLexicons()
    for (const name of [
      'joinRequest', 'invite', 'subject', 'subjectAccount', 'subjectRecord', 'role', 'member',
      'credentialScope', 'groupView', 'change', 'spaceView',
    ]) {
      expect(lex.getDef(`example.groups.defs#${name}`), name).toBeDefined()
    }
  })

  it('permission sets only name NSIDs under their own authority, with keys the scope parser knows', () => {
    const allowedKeys: Record<string, string[]> = {
      rpc: ['type', 'resource', 'lxm', 'aud', 'inheritAud'],
      repo: ['type', 'resource', 'collection', 'action'],
    }
    for (const id of PERMISSION_SETS) {
      const main = byId.get(id)?.defs.main
      expect(main?.type, id).toBe('permission-set')
      const permissions = main!.permissions as Record<string, unknown>[]
      expect(permissions.length).toBeGreaterThan(0)
      for (const p of permissions) {
        expect(p.type).toBe('permission')
        const resource = p.resource as string
        expect(Object.keys(allowedKeys)).toContain(resource)
        for (const key of Object.keys(p)) expect(allowedKeys[resource], `${id}: ${key}`).toContain(key)
        const nsids = (resource === 'rpc' ? p.lxm : p.collection) as string[]
        for (const nsid of nsids) expect(nsid.startsWith(authorityPrefix(id)), `${id} names ${nsid}`).toBe(true)
        if (resource === 'rpc') {
          expect(p.inheritAud).toBe(true)
          expect(p.aud).toBeUndefined()
        }
      }
    }
  })

  it('basePermissions covers every example.groups method and the acceptance collection', () => {
    const permissions = byId.get('example.groups.basePermissions')!.defs.main!.permissions as Record<string, unknown>[]
    const lxm = permissions.filter((p) => p.resource === 'rpc').flatMap((p) => p.lxm as string[])
    const collections = permissions.filter((p) => p.resource === 'repo').flatMap((p) => p.collection as string[])
    // notifyWrite is called by a member's PDS with service auth it mints itself, never by
    // an app through getServiceAuth: an app holding it could announce writes never made.
    const NOT_FOR_APPS = ['example.groups.notifyWrite']
    const groupMethods = docs
      .filter(({ doc }) => doc.id.startsWith('example.groups.') && ['query', 'procedure', 'subscription'].includes(doc.defs.main?.type ?? ''))
      .map(({ doc }) => doc.id)
      .filter((id) => !NOT_FOR_APPS.includes(id))
    expect([...lxm].sort()).toEqual([...groupMethods].sort())
    expect(collections).toEqual(['example.groups.acceptance'])
  })

  it('calendarPermissions covers RSVPs in the collection written before (the community one is a scope of its own: src/shared/scopes.ts)', () => {
    const permissions = byId.get('example.groups.calendarPermissions')!.defs.main!.permissions as Record<string, unknown>[]
    const collections = permissions.filter((p) => p.resource === 'repo').flatMap((p) => p.collection as string[])
    expect(collections).toContain('example.groups.rsvp')
  })

  describe('validation of sample values', () => {
    const lex = buildLexicons()
    const group = 'did:plc:abcdefghijklmnopqrstuvwx'
    const space = `at://${group}/space/community.lexicon.calendar/self`

    it('accepts a spec-shaped space address (not a valid at-uri) as a space', () => {
      expect(() => lex.assertValidXrpcInput('example.groups.getGroupAuth', { group, space })).not.toThrow()
      expect(() =>
        lex.assertValidXrpcParams('com.atproto.space.listRecords', {
          space, repo: group, collection: 'community.lexicon.calendar.event',
        }),
      ).not.toThrow()
    })

    it('accepts pending:<did> as an invite uri', () => {
      expect(() =>
        lex.assertValidXrpcOutput('example.groups.createInvite', { uri: `pending:${group}` }),
      ).not.toThrow()
    })

    it('applies list defaults and bounds', () => {
      expect(lex.assertValidXrpcParams('example.groups.listJoinRequests', { group })).toMatchObject({ limit: 50 })
      expect(() => lex.assertValidXrpcParams('example.groups.listJoinRequests', { group, limit: 101 })).toThrow()
    })

    it('refuses an unknown admit decision', () => {
      expect(() =>
        lex.assertValidXrpcInput('example.groups.admitMember', { group, did: group, decision: 'maybe' }),
      ).toThrow()
    })

    it('validates records', () => {
      const now = new Date().toISOString()
      expect(() =>
        lex.assertValidRecord('example.groups.acceptance', { $type: 'example.groups.acceptance', createdAt: now }),
      ).not.toThrow()
      expect(() =>
        lex.assertValidRecord('community.lexicon.calendar.event', {
          $type: 'community.lexicon.calendar.event', name: 'Picnic', startsAt: now, createdAt: now,
        }),
      ).not.toThrow()
      expect(() =>
        lex.assertValidRecord('example.groups.rsvp', {
          $type: 'example.groups.rsvp', subject: `${space}/community.lexicon.calendar.event/3kabc`, status: 'going', createdAt: now,
        }),
      ).not.toThrow()
      expect(() =>
        lex.assertValidRecord('community.lexicon.calendar.event', { $type: 'community.lexicon.calendar.event', name: 'x' }),
      ).toThrow()
    })

    it('validates the published calendar records as another app writes them', () => {
      const now = new Date().toISOString()
      expect(() =>
        lex.assertValidRecord('community.lexicon.calendar.event', {
          $type: 'community.lexicon.calendar.event',
          name: 'Meetup',
          startsAt: now,
          createdAt: now,
          mode: 'community.lexicon.calendar.event#hybrid',
          status: 'community.lexicon.calendar.event#cancelled',
          locations: [
            { $type: 'community.lexicon.location.address', country: 'DE', locality: 'Berlin', street: 'Hauptstr. 1' },
            { $type: 'community.lexicon.calendar.event#uri', uri: 'https://stream.example/live', name: 'Stream' },
            { $type: 'community.lexicon.location.geo', latitude: '52.52', longitude: '13.40' },
          ],
          uris: [{ uri: 'https://tickets.example/1', name: 'Tickets' }],
        }),
      ).not.toThrow()
      expect(() =>
        lex.assertValidRecord('community.lexicon.calendar.rsvp', {
          $type: 'community.lexicon.calendar.rsvp',
          subject: { uri: `at://${group}/community.lexicon.calendar.event/3kabcabcabc22`, cid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' },
          status: 'community.lexicon.calendar.rsvp#going',
        }),
      ).not.toThrow()
      // The space record's own address is not an at-uri: a subject cannot name the event by it.
      expect(() =>
        lex.assertValidRecord('community.lexicon.calendar.rsvp', {
          $type: 'community.lexicon.calendar.rsvp',
          subject: { uri: `${space}/${group}/community.lexicon.calendar.event/3kabcabcabc22`, cid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' },
          status: 'community.lexicon.calendar.rsvp#going',
        }),
      ).toThrow()
    })

    it('validates a groupView with a viewer', () => {
      expect(() =>
        lex.assertValidXrpcOutput('example.groups.getGroup', {
          did: group,
          joinPolicy: 'approval',
          roles: [{ name: 'member', actions: [], assignable: [] }],
          viewer: { roles: ['owner'], actions: ['admit', 'invite'] },
        }),
      ).not.toThrow()
    })
  })
})
