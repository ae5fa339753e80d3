import { describe, expect, it } from 'vitest'
import { listedPeople } from '../../src/shared/invite-list-text.js'

describe('the people in a pasted list or CSV', () => {
  it('takes handles and DIDs one per line, with or without @, each once, in order', () => {
    expect(listedPeople('@Alice.example.com\nbob.test\n\ndid:plc:abcdefghijklmnopqrstuvwx\nalice.example.com\n')).toEqual({
      refs: ['alice.example.com', 'bob.test', 'did:plc:abcdefghijklmnopqrstuvwx'],
      notPeople: [],
    })
  })

  it('reads a CSV: the header is skipped, names and emails beside the handle are ignored, quotes are undone', () => {
    const csv = 'name,handle,email\r\n"Otto Fern",@otto.test,otto@example.com\r\nAda,"ada.test",\r\n'
    expect(listedPeople(csv)).toEqual({ refs: ['otto.test', 'ada.test'], notPeople: [] })
  })

  it('names back what is neither a handle nor a DID, rather than dropping it', () => {
    expect(listedPeople('carol\nnot a handle\ndave.test')).toEqual({ refs: ['dave.test'], notPeople: ['carol', 'not a handle'] })
  })
})
