/**
 * Who may call a route is declared next to it and enforced by one hook. A route without a
 * declaration refuses to register, so none is open by accident.
 *
 *   config.access  public   anyone
 *                  user     any signed-in user (main account, sub-account)
 *                  parent   main accounts only (spec 000 §6 "parent-only"); with `needs`, a
 *                           sub-account holding one of them passes too (billing: parent + bill)
 *   config.needs   permissions a sub-account must hold, any one of them (spec 000 §6: "a page
 *                  listing several permissions is open if any one is held"); main accounts hold all
 *   config.bucket  'query' | 'body' | 'params': the route works on the bucket named by `bucket_name` there; the
 *                  user must be allowed to reach it (bucketForUser: the account's, and for a
 *                  sub-account of a kind it holds and, for cdn, file and live, granted to it)
 *   config.bucketScope  'data': the route reads the bucket's data (log download), so the bucket must be in
 *                  the user's data scope instead (dataBucketForUser: authorized_service "authorization"
 *                  its granted buckets, "all" every bucket of the account; spec 000 §6)
 *
 * The session, status and permission checks run on onRequest, before the body is read; the bucket check
 * (its name may be in the body) on preHandler.
 *
 * Refusals: no session 401 21110; blocked 403 21104 with user.status blocked, the user's sessions ended;
 * a disabled sub-account 403 41014; parent-only
 * or a missing permission 403 21111; a bucket out of reach 404 21905 (the same answer as a bucket
 * that does not exist).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import { ApiError } from './errors';
import { mayUse, type Need } from '../../shared/permissions';
import { SESSION_COOKIE, type SessionUser } from '../accounts/session';
import { bucketForUser, dataBucketForUser, type BucketRow } from '../buckets/repo';

export type Access = 'public' | 'user' | 'parent';
export type BucketFrom = 'query' | 'body' | 'params';

declare module 'fastify' {
  interface FastifyRequest {
    /** The bucket the access hook resolved for `config.bucket` (so a handler need not look it up again). */
    bucket: BucketRow | null;
  }
  interface FastifyContextConfig {
    access?: Access;
    needs?: Need[];
    bucket?: BucketFrom;
    bucketScope?: 'data';
  }
}

/** What a route declares, as the route table and the matrix test read it. */
export interface RouteNeeds {
  access: Access;
  needs: Need[];
  bucket?: BucketFrom;
}

/** The needs of a declaration: `parent` is `parent_only` plus whatever permissions it lists. */
export function needsOf(config: { access?: Access; needs?: Need[] }): Need[] {
  const needs = [...(config.needs ?? [])];
  if (config.access === 'parent' && !needs.includes('parent_only')) needs.unshift('parent_only');
  return needs;
}

/** For a check inside a handler (a need that depends on the payload, e.g. create_cdn for a CDN service). */
export function assertMayUse(user: SessionUser, needs: Need[]): void {
  if (!mayUse(user, needs)) throw new ApiError(21111, 403);
}

export function registerAccessControl(app: FastifyInstance, db?: DB): void {
  app.decorateRequest('bucket', null);
  app.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    if (!config.access && !String(route.url).startsWith('/app/')) {
      throw new Error(`route ${route.method} ${route.url} does not declare config.access`);
    }
    if (config.access === 'public' && (config.needs?.length || config.bucket)) {
      throw new Error(`route ${route.method} ${route.url} is public but declares needs`);
    }
  });
  // who calls is settled before the body is read (issue 34 items 1 and 11): a signed-out request gets 401
  // whatever its body, and no one without a session makes the server parse or validate one
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const config = req.routeOptions.config ?? {};
    const access = config.access ?? 'public';
    if (access === 'public') return;
    const user = req.user;
    if (!user) throw new ApiError(21110, 401);
    if (user.status === 'blocked') {
      // "user.status blocked forces sign-out" (spec 000 §3, §4): every session of the user ends here, the
      // cookie is cleared, and the answer carries user.status blocked, which the console follows to
      // /accounts/signout/ (src/console/api/client.ts), showing the blocked message once on the login page
      if (db) await db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
      throw new ApiError(21104, 403, undefined, undefined, { user: { status: 'blocked' } });
    }
    if (user.status === 'disabled') throw new ApiError(41014, 403);
    if (!mayUse(user, needsOf(config))) throw new ApiError(21111, 403);
  });
  // the bucket a route names may be in its body: resolved once the body is parsed and validated
  app.addHook('preHandler', async (req: FastifyRequest) => {
    const config = req.routeOptions.config ?? {};
    const user = req.user;
    if ((config.access ?? 'public') === 'public' || !user) return;
    if (config.bucket && db) {
      const source = (config.bucket === 'query' ? req.query : config.bucket === 'params' ? req.params : req.body) as Record<string, unknown> | undefined;
      const name = source?.bucket_name;
      if (typeof name === 'string' && name) req.bucket = await (config.bucketScope === 'data' ? dataBucketForUser : bucketForUser)(db, user, name);
    }
  });
}
