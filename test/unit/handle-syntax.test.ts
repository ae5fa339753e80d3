import { describe, expect, it } from 'vitest'
import { handleOrDidProblem, handleProblem } from '../../src/shared/handle-syntax'

describe('a typed handle, checked before it is sent', () => {
  it('takes handles, with or without @ and around spaces', () => {
    for (const ok of ['bookclub.example.com', '@open.groups.test', '  approval.groups.test ', 'a-b.c1.io', 'xn--bcher-kva.example']) expect(handleProblem(ok), ok).toBeNull()
  })

  it('says nothing about an empty field', () => {
    expect(handleProblem('   ')).toBeNull()
  })

  it('says a handle has no spaces, and what one looks like', () => {
    expect(handleProblem('book club.groups.test')).toBe('A handle has no spaces. A handle looks like bookclub.example.com: words of letters, digits and hyphens joined by dots, with no spaces.')
  })

  it('refuses what is not a handle, naming it', () => {
    for (const bad of ['bookclub', 'book_club.test', '-a.test', 'a-.test', 'a..test', 'a.1test', 'a.test.', `${'a'.repeat(64)}.test`, `${'a.'.repeat(127)}test`]) {
      expect(handleProblem(bad), bad).toMatch(/is not a handle\. A handle looks like bookclub\.example\.com/)
    }
  })

  it('takes a DID where one is allowed, and names an incomplete one', () => {
    expect(handleOrDidProblem('did:plc:ewvi7nxzyoun6zhxrhs64oiz')).toBeNull()
    expect(handleOrDidProblem('did:web:groups.example.com')).toBeNull()
    expect(handleOrDidProblem('did:plc:')).toMatch(/not a complete DID/)
    expect(handleOrDidProblem('did:plc:abc def')).toMatch(/not a complete DID/)
    expect(handleOrDidProblem('open group.groups.test')).toMatch(/^A handle has no spaces/)
    expect(handleProblem('did:plc:ewvi7nxzyoun6zhxrhs64oiz')).toMatch(/is not a handle/)
  })
})
