import { InvalidRequestError, ResponseType, XRPCError } from '@atproto/xrpc-server'

/** An error from http-errors, as body-parser throws them: a status, safe to show. */
interface HttpError extends Error {
  status: number
  expose?: boolean
  type?: string
}

const isHttpError = (err: unknown): err is HttpError =>
  err instanceof Error && typeof (err as HttpError).status === 'number' && (err as HttpError).status >= 400 && (err as HttpError).status < 500

/**
 * Refusals made while reading a request, before any method runs, in the names peers
 * know. Body-parser's errors (a body that is not JSON, a bad or unknown
 * Content-Encoding, a body over the limit) and xrpc-server's query check would
 * otherwise reach callers under library names (`SyntaxError`, `Error`,
 * `PayloadTooLargeError`, `UnsupportedMediaTypeError`, `InvalidQueryParameter`).
 * Malformed input is `InvalidRequest` (spec section 7); a body too large or in an
 * encoding this host does not read keeps its status, with the XRPC name for it.
 * Undefined for anything else.
 */
export function requestReadingError(err: unknown): XRPCError | undefined {
  if (err instanceof XRPCError) {
    if (err.customErrorName === 'InvalidQueryParameter') return new InvalidRequestError(err.errorMessage ?? err.message)
    // xrpc-server wraps body-parser's errors (XRPCError.fromError) keeping their names.
    return isHttpError(err.cause) ? fromHttpError(err.cause) : undefined
  }
  return isHttpError(err) ? fromHttpError(err) : undefined
}

function fromHttpError(err: HttpError): XRPCError {
  if (err.status === 413) return new XRPCError(ResponseType.PayloadTooLarge, 'The request body is larger than this host accepts')
  const detail = err.expose === false ? '' : `: ${err.message}`
  if (err.status === 415) return new XRPCError(ResponseType.UnsupportedMediaType, `The request body could not be read${detail}`)
  if (err.type === 'entity.parse.failed') return new InvalidRequestError('The request body is not valid JSON')
  return new InvalidRequestError(`The request body could not be read${detail}`)
}
