import http from 'node:http'
import { Writable } from 'node:stream'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import express from 'express'
import { createHostLogger } from '../../src/host/log/logger.js'
import { requestLog } from '../../src/host/log/request-log.js'
import { createXrpcServer } from '../../src/host/xrpc.js'

const lines: Record<string, unknown>[] = []
let server: http.Server
let base: string

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().trim().split('\n')) lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  const logger = createHostLogger({ destination })
  const xrpc = createXrpcServer()
  // A method whose handler has a bug: what an unexpected error looks like in the log.
  xrpc.xrpc.method('example.groups.getGroup', {
    handler: () => {
      throw new Error('boom: a bug in a handler')
    },
  })
  const app = express()
  app.use(requestLog(logger))
  app.use(xrpc.xrpc.router)
  server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

const getGroup = (headers: Record<string, string> = {}) =>
  fetch(`${base}/xrpc/example.groups.getGroup?group=did:plc:abcdefghijklmnopqrstuvwx`, { headers })

describe('request log', () => {
  it('logs an unexpected error with its stack under the request’s id, and the 500 on the request line', async () => {
    const res = await getGroup({ 'x-request-id': 'bug-1', authorization: 'Bearer secret-token-value' })
    expect(res.status).toBe(500)
    expect(res.headers.get('x-request-id')).toBe('bug-1')
    const error = lines.find((l) => l.msg === 'unexpected error')
    expect(error).toMatchObject({ reqId: 'bug-1', level: 50 })
    expect((error!.err as { stack: string }).stack).toContain('boom: a bug in a handler')
    expect(lines.find((l) => l.msg === 'request' && l.reqId === 'bug-1')).toMatchObject({ status: 500, nsid: 'example.groups.getGroup', error: 'InternalServerError' })
    expect(JSON.stringify(lines)).not.toContain('secret-token-value')
  })

  it('keeps a sane caller request id and replaces anything else', async () => {
    for (const bad of ['', 'a'.repeat(65), 'has space', 'quote"s', 'semi;colon']) {
      const res = await getGroup({ 'x-request-id': bad })
      const id = res.headers.get('x-request-id')!
      expect(id, bad).not.toBe(bad)
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
    }
    expect((await getGroup({ 'x-request-id': 'req_01.ABC:9-z' })).headers.get('x-request-id')).toBe('req_01.ABC:9-z')
  })
})
