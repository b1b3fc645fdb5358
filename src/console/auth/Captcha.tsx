/**
 * The human check of the entry pages (spec 000 §7 POST /accounts/manmachine/next): the server's image,
 * clicked for a new one. The parent keeps the id and refreshes after every use (a challenge is good once).
 */
import { useCallback, useEffect, useState } from 'react';
import { Button } from '@blueprintjs/core';
import { api } from '../api/client';

export interface CaptchaState {
  captcha_id: string;
  image: string;
}

export function useCaptcha() {
  const [captcha, setCaptcha] = useState<CaptchaState | null>(null);
  const refresh = useCallback(async () => {
    try {
      const res = await api.post<{ data: CaptchaState }>('/accounts/manmachine/next', {});
      setCaptcha(res.data);
    } catch {
      setCaptcha(null);
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return { captcha, refresh };
}

export function CaptchaImage({ captcha, onRefresh }: { captcha: CaptchaState | null; onRefresh(): void }) {
  return (
    <div className="captcha-row">
      {captcha ? <img className="captcha-image" src={captcha.image} alt="图形验证码" data-captcha-id={captcha.captcha_id} onClick={onRefresh} /> : <span className="captcha-image" />}
      <Button variant="minimal" size="small" icon="refresh" onClick={onRefresh} aria-label="换一张">
        换一张
      </Button>
    </div>
  );
}

/** The 60 s between codes (spec 000 §4, §9). */
export function useCountdown() {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setLeft((c) => c - 1), 1000);
    return () => clearTimeout(t);
  }, [left]);
  return { left, start: (s: number) => setLeft(s) };
}
