/**
 * Who may call a route is declared next to it (`config: { access }`) and enforced by one hook.
 * A route without a declaration refuses to register, so none is open by accident.
 *
 *   public  anyone
 *   user    any signed-in user (main account, sub-account)
 *   parent  main accounts only (spec 000 §6 "parent-only")
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';

export type Access = 'public' | 'user' | 'parent';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export function registerAccessControl(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access && !String(route.url).startsWith('/app/')) {
      throw new Error(`route ${route.method} ${route.url} does not declare config.access`);
    }
  });
  app.addHook('preHandler', async (req: FastifyRequest) => {
    const access = req.routeOptions.config?.access ?? 'public';
    if (access === 'public') return;
    if (!req.user) throw new ApiError(21110, 401);
    if (req.user.status === 'blocked') throw new ApiError(21104, 403);
    if (access === 'parent' && req.user.parent_id !== null) throw new ApiError(21111, 403);
  });
}
