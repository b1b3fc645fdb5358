/**
 * Entering an external product (docs/external-products.md): GET /api/external/entry gives the product's
 * address with a one-time token, opened in a new tab; without an address (or, for audit, without an
 * audit account) the in-console landing page; 22005 shows the real-name prompt.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, ApiFailure, failureText } from '../api/client';
import { alert } from '../common/toaster';
import { RealnamePrompt, type VerifyEvent } from '../common/RealnamePrompt';
import { EXTERNAL_PRODUCT_INFO, type ExternalEntry, type ExternalProduct } from '../../shared/external';

/**
 * The real-name statistics event (spec 000 §3) recorded when the prompt's 立即前往 is used, for the
 * products the event list names: sms_guide (SMS), cloud_audit (content audit).
 */
const REALNAME_EVENTS: Partial<Record<ExternalProduct, VerifyEvent>> = { sms: 'sms_guide', audit: 'cloud_audit' };

/** `onLanding`: what to do instead of going to the landing page (the landing page itself says the console is not open). */
export function useExternalEntry(product: ExternalProduct, onLanding?: () => void) {
  const navigate = useNavigate();
  const [prompt, setPrompt] = useState(false);
  const [busy, setBusy] = useState(false);
  async function enter() {
    if (busy) return;
    setBusy(true);
    try {
      const res = await api.get<{ data: ExternalEntry }>('/api/external/entry', { product });
      if (res.data.url) window.open(res.data.url, '_blank', 'noopener');
      else if (onLanding) onLanding();
      else navigate(res.data.landing);
    } catch (e) {
      if (e instanceof ApiFailure && e.code === 22005) setPrompt(true);
      else alert({ text: failureText(e), severity: 'error' });
    } finally {
      setBusy(false);
    }
  }
  const promptElement = (
    <RealnamePrompt isOpen={prompt} purpose={`使用${EXTERNAL_PRODUCT_INFO[product].label}`} event={REALNAME_EVENTS[product]} onClose={() => setPrompt(false)} />
  );
  return { enter, busy, promptElement };
}

/** A product-menu entry that leaves the console (src/console/shell/menu.ts `external`). */
export function ExternalMenuLink({ product, label }: { product: ExternalProduct; label: string }) {
  const { enter, promptElement } = useExternalEntry(product);
  return (
    <>
      <a
        href={EXTERNAL_PRODUCT_INFO[product].landing}
        className="external-entry"
        data-product={product}
        onClick={(e) => {
          e.preventDefault();
          void enter();
        }}
      >
        {label}
      </a>
      {promptElement}
    </>
  );
}
