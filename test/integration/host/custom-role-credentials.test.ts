import { beforeAll, describe, expect, it } from 'vitest'
import { useLocalNetwork, type Caller } from '../../support/local-network.js'
import { createDpopKey, fetchWithDpop, type DpopKey } from '../../support/dpop.js'

/**
 * Custom roles where a group credential acts (issue 25 point 4): a space's
 * `credentialScopes` may name a role the group defined; what it gives is read at each
 * write, so renaming the role keeps it and taking it away is refused at once, with the
 * credential already in hand (its token lives 15 minutes).
 */
const net = useLocalNetwork()
const as = net.caller
const NOTE = 'example.notes.note'
const group = () => net.group('open').did
const notes = () => `at://${group()}/space/example.notes/scribes`

interface Answer {
  status: number
  body: { error?: string; message?: string; accessJwt?: string; pds?: string; collections?: string[] }
}

async function getGroupAuth(caller: Caller, key: DpopKey): Promise<Answer> {
  const token = await caller.serviceAuth('example.groups.getGroupAuth')
  const res = await fetchWithDpop(
    key,
    `${net.stack.host.url}/xrpc/example.groups.getGroupAuth`,
    { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ group: group(), space: notes() }) },
    {},
  )
  return { status: res.status, body: (await res.json()) as Answer['body'] }
}

async function writeNote(key: DpopKey, grant: Answer['body'], text: string): Promise<Answer> {
  const res = await fetchWithDpop(key, `${grant.pds}/xrpc/com.atproto.space.createRecord`, {
    method: 'POST',
    headers: { authorization: `DPoP ${grant.accessJwt}`, 'content-type': 'application/json' },
    body: JSON.stringify({ space: notes(), repo: group(), collection: NOTE, record: { $type: NOTE, text, createdAt: new Date().toISOString() } }),
    accessToken: grant.accessJwt!,
  })
  return { status: res.status, body: (await res.json()) as Answer['body'] }
}

const call = (body: Record<string, unknown>, method: string) => as('owner').call<{ error?: string }>(method, { body: { group: group(), ...body } })

beforeAll(async () => {
  expect((await call({ name: 'scribe', actions: [], assignable: [] }, 'example.groups.putRole')).status).toBe(200)
  const made = await call(
    { type: 'example.notes', skey: 'scribes', name: 'Scribes', readableBy: ['owner', 'scribe'], credentialScopes: [{ role: 'owner', scopes: ['*'] }, { role: 'scribe', scopes: [NOTE] }] },
    'example.groups.createSpace',
  )
  expect(made.status, JSON.stringify(made.body)).toBe(200)
  expect((await call({ did: as('member').did, role: 'scribe' }, 'example.groups.grantRole')).status).toBe(200)
})

describe('a group credential acting with a custom role', () => {
  const key = createDpopKey()
  let grant: Answer['body']

  it('is granted what the space gives the custom role, and writes with it', async () => {
    const res = await getGroupAuth(as('member'), await key)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.collections).toEqual([NOTE])
    grant = res.body
    expect((await writeNote(await key, grant, 'first')).status).toBe(200)
  })

  it('keeps writing once the role is renamed: the space names the role by its new name', async () => {
    const renamed = await call({ name: 'writer', previousName: 'scribe', actions: [], assignable: [] }, 'example.groups.putRole')
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    const space = await as('owner').call<{ records: { value: { readableBy: string[]; credentialScopes: { role: string }[] } }[] }>('com.atproto.space.listRecords', {
      params: { space: `at://${group()}/space/members/self`, repo: group(), collection: 'example.groups.space' },
    })
    const index = space.body.records.find((r) => r.value.readableBy.includes('writer'))
    expect(index?.value.credentialScopes.map((c) => c.role)).toEqual(['owner', 'writer'])
    expect((await writeNote(await key, grant, 'after the rename')).status).toBe(200)
  })

  it('is refused at once, with the credential already in hand, when the space stops giving the role anything', async () => {
    const narrowed = await call({ space: notes(), credentialScopes: [{ role: 'owner', scopes: ['*'] }] }, 'example.groups.updateSpace')
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200)
    expect(await writeNote(await key, grant, 'too late')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await getGroupAuth(as('member'), await key)).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })

  it('is refused at once when the role is taken from the person', async () => {
    expect((await call({ space: notes(), credentialScopes: [{ role: 'owner', scopes: ['*'] }, { role: 'writer', scopes: [NOTE] }] }, 'example.groups.updateSpace')).status).toBe(200)
    const again = await getGroupAuth(as('member'), await key)
    expect(again.status).toBe(200)
    expect((await writeNote(await key, again.body, 'back')).status).toBe(200)
    expect((await call({ did: as('member').did, role: 'writer' }, 'example.groups.revokeRole')).status).toBe(200)
    expect(await writeNote(await key, again.body, 'gone')).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
  })
})
