import type { Server } from '../lexicon/index.js'
import type { HostContext } from '../context.js'
import type { RegisterMethod } from './registrar.js'
import requestJoin from './example/groups/requestJoin.js'

/** Every XRPC method this host serves; one file per method, folders mirror the NSID. */
const METHODS: RegisterMethod[] = [requestJoin]

export function registerMethods(server: Server, ctx: HostContext): void {
  for (const register of METHODS) register(server, ctx)
}
