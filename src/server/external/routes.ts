/**
 * External products and partner sign-in (spec 000 §1, §5, §7; docs/external-products.md).
 *
 *   GET  /api/external/entry ?product=sms|oneclicklogin|cdp|audit|workorder   → { product, url|null, landing, expires_in? }
 *   POST /accounts/app/      { token, product?, app_id? }   (public: the partner) → who the user is, once
 *   GET  /api/oauth/app/     ?app_id                         (public) → { app_id, name }
 *   GET  /api/oauth/hash/    ?app_id&redirect_uri            → { token, redirect } (redirect_uri with the token)
 *
 * Refusals: 22005 SMS, one-click login and CDP without real-name (main account's verify_status not yes);
 * 21111 a sub-account asking for SMS, one-click login or CDP (main accounts only) or for audit without
 * cloud_audit; 27601–27603 a token unknown/used, expired, or of another product; 27604 an unknown
 * partner application; 27605 a redirect_uri outside the application's allowed prefix.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { ApiError } from '../http/errors';
import { assertMayUse } from '../http/access';
import { ok } from '../http/envelope';
import { issueToken, redeemToken } from './tokens';
import { ENTRY_TOKEN_PARAM, ENTRY_TOKEN_TTL_SECONDS, EXTERNAL_CODES, EXTERNAL_PRODUCT_INFO, EXTERNAL_PRODUCTS, type ExternalEntry, type ExternalProduct } from '../../shared/external';

/** The address with the token added to its query (an existing query is kept). */
export function withToken(address: string, token: string): string {
  const hashAt = address.indexOf('#');
  const base = hashAt >= 0 ? address.slice(0, hashAt) : address;
  const hash = hashAt >= 0 ? address.slice(hashAt) : '';
  return `${base}${base.includes('?') ? '&' : '?'}${ENTRY_TOKEN_PARAM}=${encodeURIComponent(token)}${hash}`;
}

/** A redirect_uri is allowed when it starts with the application's prefix (scheme, host and path compared as text). */
export function redirectAllowed(uri: string, prefix: string): boolean {
  try {
    const u = new URL(uri);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return false;
    return uri.startsWith(prefix) && !u.username && !u.password;
  } catch {
    return false;
  }
}

export function externalRoutes(app: FastifyInstance, db: DB, config: ServerConfig): void {
  app.get<{ Querystring: { product: ExternalProduct } }>(
    '/api/external/entry',
    {
      config: { access: 'user' },
      schema: { querystring: { type: 'object', required: ['product'], properties: { product: { type: 'string', enum: [...EXTERNAL_PRODUCTS] } } } },
    },
    async (req) => {
      const user = req.user!;
      const product = req.query.product;
      const info = EXTERNAL_PRODUCT_INFO[product];
      if (info.needsVerified) {
        if (user.parent_id !== null) throw new ApiError(21111, 403);
        const account = await db.selectFrom('users').select('verify_status').where('id', '=', user.account_id).executeTakeFirstOrThrow();
        if (account.verify_status !== 'yes') throw new ApiError(22005, 403);
      }
      if (product === 'audit') assertMayUse(user, ['cloud_audit']);
      const address = config.external?.[product];
      const answer: ExternalEntry = { product, url: null, landing: info.landing };
      if (!address) return ok(answer);
      // audit: only an account that holds an audit account leaves the console (spec 000 §1)
      if (product === 'audit' && !(await db.selectFrom('audit_accounts').select('account_id').where('account_id', '=', user.account_id).executeTakeFirst())) return ok(answer);
      const token = await issueToken(db, user, product);
      return ok({ ...answer, url: withToken(address, token), expires_in: ENTRY_TOKEN_TTL_SECONDS });
    },
  );

  app.post<{ Body: { token: string; product?: string; app_id?: string } }>(
    '/accounts/app/',
    {
      config: { access: 'public' },
      schema: {
        body: {
          type: 'object',
          required: ['token'],
          additionalProperties: false,
          properties: { token: { type: 'string', minLength: 1, maxLength: 200 }, product: { type: 'string', maxLength: 40 }, app_id: { type: 'string', maxLength: 64 } },
        },
      },
    },
    async (req) => ok(await redeemToken(db, req.body.token, { product: req.body.product, app_id: req.body.app_id })),
  );

  const appIdQuery = { app_id: { type: 'string', minLength: 1, maxLength: 64 } };
  app.get<{ Querystring: { app_id: string } }>(
    '/api/oauth/app/',
    { config: { access: 'public' }, schema: { querystring: { type: 'object', required: ['app_id'], properties: appIdQuery } } },
    async (req) => {
      const row = await db.selectFrom('partner_apps').select(['app_id', 'name', 'redirect_prefix']).where('app_id', '=', req.query.app_id).executeTakeFirst();
      if (!row) throw new ApiError(EXTERNAL_CODES.unknownApp, 404);
      return ok(row);
    },
  );

  app.get<{ Querystring: { app_id: string; redirect_uri: string } }>(
    '/api/oauth/hash/',
    {
      config: { access: 'user' },
      schema: { querystring: { type: 'object', required: ['app_id', 'redirect_uri'], properties: { ...appIdQuery, redirect_uri: { type: 'string', minLength: 1, maxLength: 2000 } } } },
    },
    async (req) => {
      const row = await db.selectFrom('partner_apps').selectAll().where('app_id', '=', req.query.app_id).executeTakeFirst();
      if (!row) throw new ApiError(EXTERNAL_CODES.unknownApp, 404);
      if (!redirectAllowed(req.query.redirect_uri, row.redirect_prefix)) throw new ApiError(EXTERNAL_CODES.badRedirect, 400);
      const token = await issueToken(db, req.user!, 'oauth', row.app_id);
      return ok({ token, redirect: withToken(req.query.redirect_uri, token), expires_in: ENTRY_TOKEN_TTL_SECONDS });
    },
  );

}
