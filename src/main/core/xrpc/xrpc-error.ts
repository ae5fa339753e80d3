/** A refusal from a peer (host or PDS), keeping its `error` and `message` for logs. */
export class XrpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly status: number,
    readonly error: string,
    readonly serverMessage: string,
    readonly headers?: Headers,
  ) {
    super(`${method} failed (${status} ${error}): ${serverMessage}`)
    this.name = 'XrpcCallError'
  }
}

/** Reads an XRPC response: its JSON body, or an XrpcCallError with the spec's error name. */
export async function readXrpc<T>(method: string, res: Response): Promise<T> {
  const text = await res.text()
  let body: Record<string, unknown> = {}
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
  } catch {
    body = { message: text.slice(0, 200) }
  }
  if (!res.ok) {
    const error = typeof body.error === 'string' ? body.error : res.status === 401 ? 'AuthRequired' : `Http${res.status}`
    throw new XrpcCallError(method, res.status, error, typeof body.message === 'string' ? body.message : '', res.headers)
  }
  return body as T
}
