import { describe, expect, it } from 'vitest'
import type express from 'express'
import { formActionSource, sendPage } from '../../src/host/oauth/pages.js'

/** The headers a page would be sent with. */
function headersOf(send: (res: express.Response) => void): Record<string, string> {
  const headers: Record<string, string> = {}
  const res = {
    set: (h: Record<string, string>) => Object.assign(headers, h),
    status: () => res,
    type: () => res,
    send: () => res,
  }
  send(res as unknown as express.Response)
  return headers
}

// The consent page's answer is a redirect to the app, which the browser lets through only
// if the page's form-action names it.
describe('where the consent page’s form may send its answer', () => {
  it('names an http or https redirect by its origin', () => {
    expect(formActionSource('http://127.0.0.1:5123/callback')).toBe('http://127.0.0.1:5123')
    expect(formActionSource('https://app.example.com/oauth/callback?x=1')).toBe('https://app.example.com')
  })

  it('names a native app’s custom-scheme redirect by its scheme, which has no origin', () => {
    expect(formActionSource('com.example.app:/callback')).toBe('com.example.app:')
    expect(formActionSource('com.example.app:callback')).toBe('com.example.app:')
    const csp = headersOf((res) => sendPage(res, 200, 'Consent', '', { formTargets: [formActionSource('com.example.app:/callback')] }))['Content-Security-Policy']
    expect(csp).toContain("form-action 'self' com.example.app:;")
    expect(csp).not.toContain('null')
  })
})
