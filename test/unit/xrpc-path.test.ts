import { describe, expect, it } from 'vitest'
import { nsidOfXrpcPath } from '../../src/shared/xrpc-path.js'

describe('the method an XRPC path calls', () => {
  it.each([
    ['/xrpc/example.groups.getGroup', 'example.groups.getGroup'],
    ['/xrpc/example.groups.getGroup?group=did:plc:abc', 'example.groups.getGroup'],
    ['/xrpc/example.groups.getGroup/', 'example.groups.getGroup'],
    ['/xrpc/example.groups.getGroup/?group=did:plc:abc', 'example.groups.getGroup'],
    ['/xrpc/com.atproto.space.getRecord?space=at%3A%2F%2Fx%2Fy', 'com.atproto.space.getRecord'],
    ['/xrpc/example.groups.subscribeChanges?cursor=/xrpc/x', 'example.groups.subscribeChanges'],
  ])('%s is %s', (path, nsid) => {
    expect(nsidOfXrpcPath(path)).toBe(nsid)
  })

  it.each([
    ['a route that is no method', '/xrpc/_health'],
    ['no method', '/xrpc/'],
    ['another prefix', '/xrpcs/example.groups.getGroup'],
    ['no prefix', 'example.groups.getGroup'],
    ['an upper-case prefix', '/XRPC/example.groups.getGroup'],
    ['a sub-path', '/xrpc/example.groups.getGroup/more'],
    ['two trailing slashes', '/xrpc/example.groups.getGroup//'],
    ['a percent-encoded dot', '/xrpc/example%2Egroups.getGroup'],
    ['two segments', '/xrpc/groups.getGroup'],
    ['an empty segment', '/xrpc/example..getGroup'],
    ['a name starting with a digit', '/xrpc/example.groups.1get'],
    ['a hyphen in the name', '/xrpc/example.groups.get-group'],
    ['too long', `/xrpc/${'a'.repeat(254)}.b.c`],
  ])('refuses %s', (_why, path) => {
    expect(nsidOfXrpcPath(path)).toBeNull()
  })
})
