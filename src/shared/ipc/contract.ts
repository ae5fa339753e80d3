/**
 * The one IPC contract between the renderer and the main process. The Electron
 * `ipcMain` wiring, the preload's `contextBridge` API and the loopback shell's HTTP
 * routes are all derived from this object, so a channel cannot exist in one and not
 * the others.
 *
 * Each channel's `output` schema is also an allowlist: the main process parses every
 * result through it before it crosses, and zod drops keys the schema does not name,
 * so a token or key that slips into a result object never reaches the renderer.
 */
import { z } from 'zod'

const Empty = z.object({}).strict()

export const NetworkView = z.object({
  /** 'local' when the app runs against `npm run stack`; 'atproto' for the real network. */
  kind: z.enum(['local', 'atproto']),
  pdsUrl: z.string().nullable(),
  hostUrl: z.string().nullable(),
})

export const AppInfoView = z.object({
  name: z.string(),
  version: z.string(),
  /** Which shell carries this contract: Electron IPC or the loopback HTTP shell. */
  shell: z.enum(['electron', 'loopback']),
  network: NetworkView,
  keychain: z.object({ available: z.boolean(), message: z.string().nullable() }),
})

export const AccountView = z.object({
  did: z.string(),
  handle: z.string(),
  /** 'needs-sign-in' when the session was revoked or expired; queued work is kept. */
  status: z.enum(['active', 'needs-sign-in']),
})

const Did = z.string().regex(/^did:[a-z]+:[a-zA-Z0-9._:%-]+$/, 'not a DID')

export const SignInStartView = z.object({
  attemptId: z.string(),
  /** The person's PDS sign-in page; the renderer opens it unless the shell already did. */
  authorizeUrl: z.string(),
  openedExternally: z.boolean(),
})

export const contract = {
  'app.getInfo': { input: Empty, output: AppInfoView },
  'accounts.list': { input: Empty, output: z.array(AccountView) },
  'accounts.signIn': {
    input: z.object({ handle: z.string().trim().min(1, 'enter your handle').max(253) }).strict(),
    output: SignInStartView,
  },
  'accounts.awaitSignIn': { input: z.object({ attemptId: z.string().uuid() }).strict(), output: AccountView },
  'accounts.signOut': { input: z.object({ did: Did }).strict(), output: z.object({}) },
} as const

export type Contract = typeof contract
export type Channel = keyof Contract
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>
/** The input after validation, as handlers in the main process receive it. */
export type ParsedInput<C extends Channel> = z.output<Contract[C]['input']>
export type ChannelOutput<C extends Channel> = z.output<Contract[C]['output']>

export type AppInfo = z.output<typeof AppInfoView>
export type Account = z.output<typeof AccountView>

export const CHANNELS = Object.freeze(Object.keys(contract) as Channel[])

export const isChannel = (name: unknown): name is Channel =>
  typeof name === 'string' && Object.hasOwn(contract, name)
