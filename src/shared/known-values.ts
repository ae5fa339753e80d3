/**
 * The values a lexicon's `knownValues` names, out of the open string type lex-cli
 * generates for them (`'a' | 'b' | (string & {})`): a table keyed by them must name
 * every one, and a misspelled one does not compile.
 */
export type KnownValues<T> = T extends string ? (string extends T ? never : T) : never
