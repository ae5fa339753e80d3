import http from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerOtherErrors, retryAfterOn503 } from '../../src/host/unavailable.js'

/**
 * Paths outside XRPC (e.g. /.well-known/...) go through the host's own last error
 * handler: the same bodies as XRPC, a busy database a 503 with Retry-After. (XRPC
 * methods are tested against the running host: test/integration/host/database-busy.)
 */
let server: http.Server
let base: string

beforeAll(async () => {
  const app = express()
  app.use(retryAfterOn503)
  app.get('/busy', () => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
  })
  app.get('/bug', () => {
    throw new Error('secret detail of a bug')
  })
  app.use(answerOtherErrors)
  server = http.createServer(app).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('errors on paths outside XRPC', () => {
  it('answers a busy database 503 ServiceUnavailable with Retry-After', async () => {
    const res = await fetch(`${base}/busy`)
    expect(res.status).toBe(503)
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await res.json()).toMatchObject({ error: 'ServiceUnavailable' })
  })

  it('answers a bug 500 in JSON without its details', async () => {
    const res = await fetch(`${base}/bug`)
    expect(res.status).toBe(500)
    expect(res.headers.get('retry-after')).toBeNull()
    const body = await res.json()
    expect(body).toEqual({ error: 'InternalServerError', message: 'Internal Server Error' })
  })
})
