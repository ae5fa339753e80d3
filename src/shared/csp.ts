/**
 * The renderer's Content-Security-Policy, sent by both shells. Nothing but the app's
 * own files runs; calls go only to the shell that served the page.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Vite's dev server injects <style> tags for hot reload; only dev builds allow them. */
export const DEV_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "style-src 'self'",
  "style-src 'self' 'unsafe-inline'",
).replace("connect-src 'self'", "connect-src 'self' ws:")
