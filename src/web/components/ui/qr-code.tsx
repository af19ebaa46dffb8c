import QRCode from 'qrcode';
import { useEffect, useState } from 'react';

/**
 * A QR code of `value`, drawn in the browser, 192 px square; until it is drawn, an empty box of
 * the same size holds its place, so nothing moves when it appears.
 */
export function QrCode({ value, label, className = '' }: { value: string; label: string; className?: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { margin: 1, width: 192, errorCorrectionLevel: 'M' })
      .then((data) => live && setUrl(data))
      .catch(() => live && setUrl(null));
    return () => {
      live = false;
    };
  }, [value]);
  const frame = `rounded-md border border-slate-200 ${className}`;
  if (!url) return <div className={`h-48 w-48 bg-slate-50 ${frame}`} aria-hidden="true" />;
  return <img src={url} alt={label} width={192} height={192} className={frame} />;
}
