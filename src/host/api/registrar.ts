import type { Server } from '../../node/lexicon/index.js'
import type { HostContext } from '../context.js'

/** Each method file exports one of these: it adds its method to the XRPC server. */
export type RegisterMethod = (server: Server, ctx: HostContext) => void
