import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const eslint = new ESLint({ cwd: root })

/** Lints a snippet as if it were a file at `file`, returning the import rule's messages. */
async function importErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) })
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

/** The messages of the rules that keep the host's requests on its guarded fetch. */
async function outboundErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) })
  const rules = ['no-restricted-globals', 'no-restricted-properties', 'no-restricted-syntax', 'no-restricted-imports']
  return result!.messages.filter((m) => rules.includes(m.ruleId ?? '')).map((m) => m.message)
}

describe('lint keeps the layers apart', () => {
  it.each(['src/main/core/x.ts', 'src/shared/x.ts', 'src/host/x.ts', 'src/node/x.ts'])(
    'refuses electron in %s',
    async (file) => {
      expect(await importErrors(file, "import { app } from 'electron'\nexport const a = app\n")).toHaveLength(1)
    },
  )

  it('allows electron in the Electron adapter and the preload', async () => {
    for (const file of ['src/main/electron/x.ts', 'src/preload/x.ts']) {
      expect(await importErrors(file, "import { app } from 'electron'\nexport const a = app\n")).toEqual([])
    }
  })

  it.each(["import fs from 'node:fs'", "import fs from 'fs'", "import { ipcRenderer } from 'electron'"])(
    'refuses %s in the renderer',
    async (line) => {
      expect(await importErrors('src/renderer/src/x.ts', `${line}\nexport const a = 1\n`)).toHaveLength(1)
    },
  )

  it('refuses main-process code in the renderer and Node in shared code', async () => {
    expect(await importErrors('src/renderer/src/x.ts', "import { createCore } from '../../main/core/app-core'\nexport const a = createCore\n")).toHaveLength(1)
    expect(await importErrors('src/shared/x.ts', "import path from 'node:path'\nexport const a = path\n")).toHaveLength(1)
  })

  it('refuses app code in the group host', async () => {
    expect(await importErrors('src/host/x.ts', "import { createCore } from '../main/core/app-core.js'\nexport const a = createCore\n")).toHaveLength(1)
  })

  describe('through the path aliases (@shared, @core, @node) too', () => {
    it.each([
      ['src/renderer/src/x.ts', "import { createCore } from '@core/app-core.js'"],
      ['src/renderer/src/x.ts', "import { LEXICON_DIR } from '@node/lexicons.js'"],
      ['src/shared/x.ts', "import { log } from '@core/log/log.js'"],
      ['src/shared/x.ts', "import { LEXICON_DIR } from '@node/lexicons.js'"],
      ['src/host/x.ts', "import { HostClient } from '@core/xrpc/host-client.js'"],
    ])('refuses in %s: %s', async (file, line) => {
      expect(await importErrors(file, `${line}\nexport const a = 1\n`)).toHaveLength(1)
    })

    it('allows what each layer may use', async () => {
      expect(await importErrors('src/renderer/src/x.ts', "import { plainMessage } from '@shared/errors.js'\nexport const a = plainMessage\n")).toEqual([])
      expect(await importErrors('src/main/core/x.ts', "import { plainMessage } from '@shared/errors.js'\nimport { LEXICON_DIR } from '@node/lexicons.js'\nexport const a = [plainMessage, LEXICON_DIR]\n")).toEqual([])
    })

    it('resolves the same modules as the relative paths (here, in Vitest)', async () => {
      const [viaAlias, viaPath] = await Promise.all([import('@shared/errors.js'), import('../../src/shared/errors.js')])
      expect(viaAlias).toBe(viaPath)
    })
  })

  it('keeps cache migrations self-contained: kysely only, no live code', async () => {
    const file = 'src/main/core/cache/migrations/009-x.ts'
    expect(await importErrors(file, "import { sql, type Kysely } from 'kysely'\nexport const a = [sql]\nexport type K = Kysely<unknown>\n")).toEqual([])
    for (const line of ["import { putItem } from '../items.js'", "import { CHANGES_KEPT } from './003-item-change.js'", "import { log } from '@core/log/log.js'", "import { plainMessage } from '@shared/errors.js'", "import fs from 'node:fs'"]) {
      expect(await importErrors(file, `${line}\nexport const a = 1\n`), line).toHaveLength(1)
    }
  })

  it('keeps host migrations self-contained: kysely and their own folder only', async () => {
    const file = 'src/host/db/migrations/019-x.ts'
    expect(await importErrors(file, "import { sql, type Kysely } from 'kysely'\nimport type { Migration } from 'kysely/migration'\nimport { inTransaction } from './portable.js'\nexport const a = [sql, inTransaction]\nexport type K = Kysely<unknown> | Migration\n")).toEqual([])
    for (const line of ["import { isPostgres } from '../dialect.js'", "import type { HostDatabaseSchema } from '../schema.js'", "import { seal } from '../../secrets/sealed.js'", "import { cidForLex } from '@atproto/lex-cbor'", "import { randomBytes } from 'node:crypto'"]) {
      expect(await importErrors(file, `${line}\nexport const a = 1\n`), line).toHaveLength(1)
    }
  })
})

describe('lint keeps every request of the group host on its guarded fetch', () => {
  const guarded = /guarded fetch/

  it.each([
    ['a bare fetch', "export const get = () => fetch('https://example.com/x')\n"],
    ['globalThis.fetch', "export const get = () => globalThis.fetch('https://example.com/x')\n"],
    ['fetch handed on', 'export const f = { fetch }\n'],
    ['an OAuth client without a fetch', "import { NodeOAuthClient } from '@atproto/oauth-client-node'\nexport const c = (o: never) => new NodeOAuthClient({ clientMetadata: o, stateStore: o, sessionStore: o })\n"],
    ['an OAuth client whose fetch is somewhere inside, not its own', "import { NodeOAuthClient } from '@atproto/oauth-client-node'\nexport const c = (o: never) => new NodeOAuthClient({ clientMetadata: o, stateStore: { fetch: o }, sessionStore: o })\n"],
    ['an OAuth client from options it cannot see into', "import { NodeOAuthClient } from '@atproto/oauth-client-node'\nexport const c = (o: never) => new NodeOAuthClient(o)\n"],
    ['an IdResolver without a fetch', "import { IdResolver } from '@atproto/identity'\nexport const r = new IdResolver({ plcUrl: 'https://plc.directory' })\n"],
    ['the PLC library’s client', "import * as plc from '@did-plc/lib'\nexport const c = new plc.Client('https://plc.directory')\n"],
    ['axios', "import axios from 'axios'\nexport const a = axios\n"],
    ['undici', "import { request } from 'undici'\nexport const a = request\n"],
    ['node:https', "import https from 'node:https'\nexport const a = https\n"],
    ['http.request', "import http from 'node:http'\nexport const get = () => http.request('http://127.0.0.1/')\n"],
  ])('refuses %s in src/host', async (_what, code) => {
    const errors = await outboundErrors('src/host/x.ts', code)
    expect(errors.length, code).toBeGreaterThan(0)
    expect(errors.join('\n')).toMatch(guarded)
  })

  it('refuses a resolver built without a fetch in src/node too (the host’s resolvers are built there)', async () => {
    const code = "import { IdResolver } from '@atproto/identity'\nexport const r = new IdResolver({ plcUrl: 'https://plc.directory' })\n"
    expect(await outboundErrors('src/node/x.ts', code)).toHaveLength(1)
  })

  it('allows the guarded fetch, clients given one, and a parameter named fetch', async () => {
    const code = [
      "import { NodeOAuthClient } from '@atproto/oauth-client-node'",
      "import { IdResolver } from '@atproto/identity'",
      "import http from 'node:http'",
      "import type { HostContext } from './context.js'",
      "export const get = (ctx: HostContext) => ctx.peerFetch('https://example.com/x', { redirect: 'error' })",
      'export const load = (url: string, fetch: typeof globalThis.fetch) => fetch(url)',
      "export const c = (o: never, f: never) => new NodeOAuthClient({ clientMetadata: o, stateStore: o, sessionStore: o, fetch: f })",
      "export const r = (f: never) => new IdResolver({ plcUrl: 'https://plc.directory', fetch: f })",
      'export const server = http.createServer()',
      '',
    ].join('\n')
    expect(await outboundErrors('src/host/x.ts', code)).toEqual([])
  })

  it('keeps the app core on its guarded fetches too (issue 35): no bare fetch, no client left to the global', async () => {
    for (const code of [
      "export const get = () => fetch('https://example.com/x')\n",
      "export const get = () => globalThis.fetch('https://example.com/x')\n",
      "import { NodeOAuthClient } from '@atproto/oauth-client-node'\nexport const c = (o: never) => new NodeOAuthClient({ clientMetadata: o, stateStore: o, sessionStore: o })\n",
    ]) {
      const errors = await outboundErrors('src/main/core/x.ts', code)
      expect(errors.length, code).toBeGreaterThan(0)
      expect(errors.join('\n'), code).toMatch(/guarded fetches app-core\.ts makes/)
    }
    const allowed = "export const load = (url: string, fetch: typeof globalThis.fetch) => fetch(url, { redirect: 'error' })\n"
    expect(await outboundErrors('src/main/core/x.ts', allowed)).toEqual([])
  })
})
