// Lint keeps the layering of docs/architecture.md: code is sorted by where it may run.
import { builtinModules } from 'node:module'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import vue from 'eslint-plugin-vue'
import globals from 'globals'

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)]

const noElectron = {
  name: 'electron',
  message: 'Only src/main/electron and src/preload may use Electron; this code must run in plain Node.',
}

/** The path aliases (tsconfig.base.json `paths`), as import patterns: a layer rule names both spellings. */
const alias = { core: ['@core', '@core/**'], node: ['@node', '@node/**'] }

const guardedFetch =
  'The host sends requests only through its guarded fetch: ctx.peerFetch for peers, createIdentityFetch/createTrustedFetch for the operator\'s PLC (src/node/safe-fetch.ts).'

const coreGuardedFetch =
  'The app core sends requests only through the guarded fetches app-core.ts makes (src/node/safe-fetch.ts: createHostCallFetch for group hosts, createPeerFetch for peers, createTrustedFetch for the configured network): take one as a dependency.'

/** HTTP clients with their own transport (no SSRF guard, no time or size limit): not in the host. */
const unguardedClients = [
  ...['axios', 'undici', 'node-fetch', 'got', 'https', 'node:https'].map((name) => ({ name, message: guardedFetch })),
  { name: '@did-plc/lib', importNames: ['Client'], message: `The PLC library's client uses axios. ${guardedFetch}` },
]

/** atproto clients that fetch with the bare global unless given a `fetch`. */
const unguardedConstruction = {
  selector:
    "NewExpression[callee.name=/^(NodeOAuthClient|OAuthClient|IdResolver|DidResolver|HandleResolver|DidResolverCommon|AtprotoHandleResolverNode)$/]:not(:has(> ObjectExpression:has(> Property[key.name='fetch'])))",
  message: `This client fetches with the bare global fetch unless given one: pass \`fetch\`. ${guardedFetch}`,
}

const unguardedRequests = [
  unguardedConstruction,
  { selector: "NewExpression > MemberExpression.callee[property.name='Client']:not([object.name='pg'])", message: `The PLC library's client uses axios. ${guardedFetch}` },
  { selector: "CallExpression > MemberExpression.callee[object.name=/^https?$/][property.name=/^(request|get)$/]", message: guardedFetch },
]

/**
 * The app core's layers (docs/architecture.md, "The core's layers"), lowest first:
 * infrastructure, the account runtime (session/), what an action is (actions/), the domain
 * folders, the services over them (groups/, sync/, reading/, queue/), app-core.ts. Each names only those below it
 * (a circle even of types is the cycle test's: test/unit/import-cycles.test.ts).
 */
const CORE_SERVICES = ['groups', 'sync', 'reading', 'queue']
const CORE_DOMAINS = ['calendar', 'membership', 'moderation', 'invites', 'roles', 'settings', 'spaces', 'posts', 'people', 'audit', 'today', 'live', 'group-sessions', 'updates', 'lifecycle']
const coreFolders = (folders) => folders.flatMap((f) => [`**/core/${f}/**`, `../${f}/**`, `./${f}/**`, `@core/${f}/**`])
const coreTop = ['**/app-core', '**/app-core.js', './app-core.js', '@core/app-core.js']
const coreLayer = (files, above, what) => layer(files, { paths: [noElectron], patterns: [{ group: [...coreFolders(above), ...coreTop], message: `${what} (docs/architecture.md, "The core's layers").` }] })

/** no-restricted-imports for one layer: banned module names and banned path patterns. */
const layer = (files, { paths = [], patterns = [] }) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
})

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', '.test-host/**', 'node_modules/**', '.tools/**', '.stack/**', 'test-results/**', 'playwright-report/**', 'src/node/lexicon/**', 'src/node/lexicon.next/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
  },
  { languageOptions: { globals: { ...globals.node } } },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
    },
  },
  // Electron-free layers: the core, shared code, the host, the local network.
  layer(['src/main/core/**', 'src/node/**', 'src/host/**', 'src/stack/**', 'src/dev/**'], { paths: [noElectron] }),
  // The core's layers, lowest first; each rule repeats the Electron ban it replaces for its files.
  coreLayer(['src/main/core/{cache,xrpc,credentials,secrets,log,outbox,ipc}/**', 'src/main/core/network.ts'], [...CORE_DOMAINS, 'accounts', 'session', 'actions', ...CORE_SERVICES], 'Infrastructure names no account runtime, action, domain or service'),
  coreLayer(['src/main/core/session/**'], [...CORE_DOMAINS.filter((d) => d !== 'people'), 'actions', ...CORE_SERVICES], 'The account runtime names no action, domain folder or service'),
  coreLayer(['src/main/core/actions/action-spec.ts', 'src/main/core/actions/via-host.ts'], [...CORE_DOMAINS, ...CORE_SERVICES], 'What an action is names no domain folder or service (only registry.ts joins the domain tables)'),
  coreLayer(['src/main/core/{accounts,' + CORE_DOMAINS.join(',') + '}/**', 'src/main/core/actions/registry.ts', 'src/main/core/{' + CORE_SERVICES.join(',') + '}/**'], [], 'Only the shells build the core: nothing in it names app-core.ts'),
  // Shared code runs everywhere, the sandboxed renderer included: no Node, no Electron.
  layer(['src/shared/**'], {
    paths: [noElectron, ...nodeBuiltins.map((name) => ({ name, message: 'src/shared runs in the renderer too: no Node APIs.' }))],
    patterns: [{ group: ['**/main/**', '**/node/**', '**/host/**', '**/stack/**', ...alias.core, ...alias.node], message: 'src/shared may import only src/shared.' }],
  }),
  // The renderer sees the main process only through the IPC contract.
  layer(['src/renderer/**'], {
    paths: [noElectron, ...nodeBuiltins.map((name) => ({ name, message: 'The renderer is sandboxed: no Node APIs. Ask the main process through the IPC contract.' }))],
    patterns: [{ group: ['**/main/**', '**/node/**', '**/host/**', '**/stack/**', '**/preload/**', ...alias.core, ...alias.node], message: 'The renderer may import only src/renderer and src/shared.' }],
  }),
  // The host is its own service: nothing from the app. Its outbound requests all go
  // through its guarded fetch (src/node/safe-fetch.ts): no other HTTP client.
  layer(['src/host/**'], {
    paths: [noElectron, ...unguardedClients],
    patterns: [{ group: ['**/main/**', '**/renderer/**', '**/preload/**', ...alias.core], message: 'The group host must not depend on the app.' }],
  }),
  // Every request the host sends goes through one guarded fetch (SSRF checks on every
  // hop, time and size caps): never the bare global, never a client left to its own.
  {
    files: ['src/host/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: guardedFetch }],
      'no-restricted-properties': ['error', ...['globalThis', 'global'].map((object) => ({ object, property: 'fetch', message: guardedFetch }))],
      'no-restricted-syntax': ['error', ...unguardedRequests],
    },
  },
  // The desktop's core likewise (issue 35): hosts, PDSes and handles are named by documents
  // anyone can write, so every request goes through a guarded fetch made in app-core.ts.
  {
    files: ['src/main/core/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: coreGuardedFetch }],
      'no-restricted-properties': ['error', ...['globalThis', 'global'].map((object) => ({ object, property: 'fetch', message: coreGuardedFetch }))],
      'no-restricted-syntax': ['error', { ...unguardedConstruction, message: `This client fetches with the bare global fetch unless given one: pass \`fetch\`. ${coreGuardedFetch}` }],
    },
  },
  // Where the host's resolvers are built (src/node/id-resolver.ts): with a fetch too.
  { files: ['src/node/**'], rules: { 'no-restricted-syntax': ['error', unguardedConstruction] } },
  // A migration is history: it must do the same thing forever, so it uses no live code
  // that a later change could alter (copy in what it needs).
  layer(['src/main/core/cache/migrations/**'], {
    paths: [noElectron],
    patterns: [{ group: ['*', '!kysely', '!kysely/*'], message: 'A cache migration imports only kysely: copy in what it needs, so later changes cannot change it.' }],
  }),
  // The host's migrations likewise: kysely and one another's folder (migrations/portable.ts), nothing else.
  layer(['src/host/db/migrations/**'], {
    paths: [noElectron],
    patterns: [{ regex: '^(?!kysely(/|$)|\\./[^/]+$)', message: 'A host migration imports only kysely and files of its own folder: copy in what it needs, so later changes cannot change it.' }],
  }),
)
