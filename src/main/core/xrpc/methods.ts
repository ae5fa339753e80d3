import { Lexicons } from '@atproto/lexicon'
import type { AtpBaseClient } from './lexicon/index.js'
import { schemaDict, schemas } from './lexicon/lexicons.js'

/**
 * The methods the app calls, typed by NSID from the client generated out of
 * `lexicons/` (`npm run codegen` writes ./lexicon/): a call names its method and gets
 * that method's parameters, input and output types, so no answer is cast by hand.
 */

/** The lexicons the client checks every answer against (compiled once). */
export const LEXICONS = new Lexicons(schemas)

type Doc = (typeof schemaDict)[keyof typeof schemaDict]
type NsidOf<Kind extends string> = Doc extends infer D ? (D extends { id: infer Id extends string; defs: { main: { type: Kind } } } ? Id : never) : never

export type QueryNsid = NsidOf<'query'>
export type ProcedureNsid = NsidOf<'procedure'>

/** The generated client's method for an NSID (example.groups.getGroup → client.example.groups.getGroup). */
type At<T, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? At<T[Head], Rest>
    : never
  : Path extends keyof T
    ? T[Path]
    : never
type Method<M extends QueryNsid | ProcedureNsid> = M extends unknown // one method at a time: a union of NSIDs gives a union of types
  ? At<AtpBaseClient, M> extends (...args: infer A) => Promise<{ data: infer O }>
    ? { args: A; output: O }
    : never
  : never

export type QueryParams<M extends QueryNsid> = NonNullable<Method<M>['args'][0]>
export type ProcedureInput<M extends ProcedureNsid> = NonNullable<Method<M>['args'][0]>
export type Output<M extends QueryNsid | ProcedureNsid> = Method<M>['output']
