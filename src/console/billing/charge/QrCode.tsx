/**
 * The QR-code widget of the payment page (spec 001 §2.6: defaults size 256, level M, logo size 20),
 * drawn with the qrcode package on a canvas, with a small logo in the middle.
 */
import { useEffect, useRef } from 'react';
import QRCode from 'qrcode';
import { QR_DEFAULTS } from '../../../shared/billing-money';

export interface QrCodeProps {
  value: string;
  size?: number;
  level?: 'L' | 'M' | 'Q' | 'H';
  logoSize?: number;
  /** the logo's one character */
  logo?: string;
}

export function QrCode({ value, size = QR_DEFAULTS.size, level = QR_DEFAULTS.level, logoSize = QR_DEFAULTS.logoSize, logo = '支' }: QrCodeProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    let cancelled = false;
    void QRCode.toCanvas(canvas, value, { width: size, errorCorrectionLevel: level, margin: 1 }).then(() => {
      const ctx = canvas.getContext('2d');
      if (cancelled || !ctx || logoSize <= 0) return;
      const x = (canvas.width - logoSize) / 2;
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(x - 2, x - 2, logoSize + 4, logoSize + 4);
      ctx.fillStyle = '#1677ff';
      ctx.fillRect(x, x, logoSize, logoSize);
      ctx.fillStyle = '#ffffff';
      ctx.font = `${Math.floor(logoSize * 0.7)}px sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(logo, canvas.width / 2, canvas.width / 2 + 1);
    });
    return () => {
      cancelled = true;
    };
  }, [value, size, level, logoSize, logo]);
  return <canvas ref={ref} width={size} height={size} className="qr-code" role="img" aria-label="支付二维码" data-value={value} />;
}
