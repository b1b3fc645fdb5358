/**
 * Whether the schema gallery is offered to the signed-in user: main accounts only (no `child`), and
 * only when the server answers its endpoint (it is off in production, SCHEMA_GALLERY=0, and then
 * answers 404). The probe is a HEAD request, so the declarations and fixtures are fetched by the
 * gallery page alone. This module is part of the shell; the page itself is the lazy "gallery" chunk.
 */
import { useEffect, useState } from 'react';
import type { CurrentUser } from '../../shared/account';
import './menu.css';

import { GALLERY_PATH as GALLERY_API } from '../../../schemas/gallery';
export { GALLERY_API };

const probes = new Map<number, Promise<boolean>>();

/** HEAD /api/schemas/gallery/ → true on 200 (no body, so the API client's central rules have nothing to apply). */
export function probeGallery(userId: number): Promise<boolean> {
  let p = probes.get(userId);
  if (!p) {
    p = fetch(GALLERY_API, { method: 'HEAD', credentials: 'same-origin' }).then(
      (r) => r.ok,
      () => false,
    );
    probes.set(userId, p);
  }
  return p;
}

export function useGalleryAvailable(user: CurrentUser | null): boolean {
  const userId = user && !user.child ? user.user_id : null;
  const [available, setAvailable] = useState<{ userId: number; ok: boolean } | null>(null);
  useEffect(() => {
    if (userId === null) return;
    let live = true;
    void probeGallery(userId).then((ok) => live && setAvailable({ userId, ok }));
    return () => {
      live = false;
    };
  }, [userId]);
  return userId !== null && available?.userId === userId && available.ok;
}
