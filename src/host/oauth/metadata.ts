import type express from 'express'
import type { HostContext } from '../context.js'
import { DPOP_CHALLENGE_ALGS } from '../auth/www-authenticate.js'
import { AUTHORIZE_PATH } from './authorize.js'
import { PAR_PATH } from './par.js'
import { REVOKE_PATH, TOKEN_PATH } from './token.js'
import { UPSTREAM_CLIENT_METADATA_PATH, upstreamClientMetadata } from './upstream.js'

/**
 * RFC 9728 protected-resource metadata: this host serves the groups' records (their DID
 * documents name it as `atproto_pds`) and is their authorization server, so an atproto
 * OAuth client that resolves a group finds the way to sign in here.
 */
function protectedResourceMetadata(origin: string) {
  return {
    resource: origin,
    authorization_servers: [origin],
    scopes_supported: [],
    bearer_methods_supported: ['header'],
    resource_documentation: 'https://atproto.com',
  }
}

/** RFC 8414 authorization-server metadata, with what atproto OAuth clients require of it. */
function authorizationServerMetadata(origin: string) {
  const at = (path: string) => new URL(path, origin).href
  return {
    issuer: origin,
    authorization_endpoint: at(AUTHORIZE_PATH),
    token_endpoint: at(TOKEN_PATH),
    pushed_authorization_request_endpoint: at(PAR_PATH),
    require_pushed_authorization_requests: true,
    revocation_endpoint: at(REVOKE_PATH),
    scopes_supported: ['atproto'],
    subject_types_supported: ['public'],
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    ui_locales_supported: ['en'],
    display_values_supported: ['page'],
    authorization_response_iss_parameter_supported: true,
    request_object_signing_alg_values_supported: [],
    request_parameter_supported: false,
    request_uri_parameter_supported: true,
    require_request_uri_registration: true,
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    dpop_signing_alg_values_supported: DPOP_CHALLENGE_ALGS.split(' '),
    client_id_metadata_document_supported: true,
    protected_resources: [origin],
  }
}

export function registerOAuthMetadata(app: express.Application, ctx: HostContext): void {
  const origin = ctx.groupAuth.oauthTokens.issuer
  const json = (body: unknown): express.RequestHandler => (_req, res) => {
    // Public documents any site may read (clients in browsers fetch them).
    res.set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=300' }).json(body)
  }
  app.get('/.well-known/oauth-protected-resource', json(protectedResourceMetadata(origin)))
  app.get('/.well-known/oauth-authorization-server', json(authorizationServerMetadata(origin)))
  app.get(UPSTREAM_CLIENT_METADATA_PATH, json(upstreamClientMetadata(ctx.config.publicUrl)))
}
