import { Lexicons } from '@atproto/lexicon'
import type { Server } from '@node/lexicon/index.js'
import { schemaDict, schemas } from '@node/lexicon/lexicons.js'

/**
 * The methods the app calls, typed by NSID from the code generated out of `lexicons/`
 * (src/node/lexicon/, which setup regenerates: scripts/lexicon-code.mjs): a call names
 * its method and gets that method's parameters, input and output types, so no answer
 * is cast by hand. The types are read off the generated server's method for the NSID
 * (the one tree the host uses too); only its types are imported, so the app never loads
 * the server.
 */

/** The lexicons the client checks every answer against (compiled once). */
export const LEXICONS = new Lexicons(schemas)

type Doc = (typeof schemaDict)[keyof typeof schemaDict]
type NsidOf<Kind extends string> = Doc extends infer D ? (D extends { id: infer Id extends string; defs: { main: { type: Kind } } } ? Id : never) : never

export type QueryNsid = NsidOf<'query'>
export type ProcedureNsid = NsidOf<'procedure'>

/** The generated server's method for an NSID (example.groups.getGroup → server.example.groups.getGroup). */
type At<T, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : Path extends keyof T
    ? T[Path]
    : never
/** What the method's handler is given (params, input) and answers (a success's body). */
type Method<M extends QueryNsid | ProcedureNsid> = M extends unknown // one method at a time: a union of NSIDs gives a union of types
  ? At<Server, M> extends (config: infer Config) => unknown
    ? Extract<Config, { handler: unknown }>['handler'] extends (ctx: infer Ctx extends { params: unknown; input: unknown }) => infer Answer
      ? { params: Ctx['params']; input: Ctx['input']; output: Extract<Awaited<Answer>, { body: unknown }>['body'] }
      : never
    : never
  : never

/**
 * The server's types make a field the lexicon gives a default required (the server fills
 * it in before its handler runs); a caller may leave it out, as the lexicon says.
 */
type Main<M extends string> = Doc extends infer D ? (D extends { id: M; defs: { main: infer Def } } ? Def : never) : never
type Defaulted<T, Props> = { [K in keyof Props]: Props[K] extends { default: unknown } ? K : never }[keyof Props] & keyof T
type DefaultsOptional<T, Props> = [Defaulted<T, Props>] extends [never] ? T : Omit<T, Defaulted<T, Props>> & Partial<Pick<T, Defaulted<T, Props>>>

// Each distributes over a union of NSIDs, as Method does.
export type QueryParams<M extends QueryNsid> = M extends unknown ? DefaultsOptional<Method<M>['params'], Main<M> extends { parameters: { properties: infer P } } ? P : object> : never
export type ProcedureInput<M extends ProcedureNsid> = M extends unknown
  ? DefaultsOptional<NonNullable<Method<M>['input']>['body'], Main<M> extends { input: { schema: { properties: infer P } } } ? P : object>
  : never
export type Output<M extends QueryNsid | ProcedureNsid> = Method<M>['output']
