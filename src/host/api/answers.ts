/** A method's JSON answer, as @atproto/xrpc-server takes it from a handler. */
export const json = <B>(body: B) => ({ encoding: 'application/json' as const, body })

/** A page's cursor when there is a next page; absent at the end, as the lexicons have it. */
export const cursorField = (cursor: string | undefined): { cursor?: string } => (cursor ? { cursor } : {})
