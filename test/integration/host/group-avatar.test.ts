import { describe, expect, it } from 'vitest'
import { useLocalNetwork } from '../../support/local-network.js'

/** A group's avatar (issue 25 point 4): set with configureGroup, served in the group view, small and strictly an image. */
const net = useLocalNetwork()
const as = net.caller
const group = () => net.group('approval').did

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
const configure = (by: 'owner' | 'admin', body: Record<string, unknown>) =>
  as(by).call<{ error?: string; message?: string; seq?: number }>('example.groups.configureGroup', { body: { group: group(), ...body } })
const avatarSeen = async (by: 'outsider' | 'member') => (await as(by).call<{ avatar?: string }>('example.groups.getGroup', { params: { group: group() } })).body.avatar

describe('a group avatar', () => {
  it('is set by whoever may configure the group and served to every reader as a data: URL of the type its bytes say', async () => {
    expect(await configure('owner', { avatar: PNG })).toMatchObject({ status: 200, body: { seq: expect.any(Number) } })
    expect(await avatarSeen('member')).toBe(`data:image/png;base64,${PNG}`)
    expect(await avatarSeen('outsider')).toBe(`data:image/png;base64,${PNG}`)
  })

  it('refuses what is not a PNG, JPEG or WebP image, whatever it claims, and anything over 64 KB', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64')
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1').toString('base64')
    for (const avatar of [svg, gif]) {
      const res = await configure('owner', { avatar })
      expect(res).toMatchObject({ status: 400, body: { error: 'InvalidRequest' } })
      expect(res.body.message).toMatch(/PNG, JPEG or WebP/)
    }
    // One byte over 64 KB: the host says so; far over, the request's size limit refuses it before.
    const png = Buffer.from(PNG, 'base64')
    const over = Buffer.concat([png, Buffer.alloc(64 * 1024 + 1 - png.length)]).toString('base64')
    expect((await configure('owner', { avatar: over })).body.message).toMatch(/at most 64 KB/)
    const far = Buffer.concat([png, Buffer.alloc(200 * 1024)]).toString('base64')
    expect(await configure('owner', { avatar: far })).toMatchObject({ status: 413, body: { error: 'PayloadTooLarge' } })
    expect((await configure('owner', { avatar: 'not base64!' })).body.message).toMatch(/base64/)
    // What was there stays.
    expect(await avatarSeen('member')).toBe(`data:image/png;base64,${PNG}`)
  })

  it('is refused to those who may not configure the group, and can be taken away', async () => {
    expect(await configure('admin', { removeAvatar: true })).toMatchObject({ status: 400, body: { error: 'Forbidden' } })
    expect(await configure('owner', { removeAvatar: true })).toMatchObject({ status: 200 })
    expect(await avatarSeen('member')).toBeUndefined()
  })
})
