import { useEffect, useState } from 'react';

/** The module matrix as one SVG path, with four modules of quiet zone around it (the standard's minimum). */
async function qrPath(text: string): Promise<{ size: number; path: string }> {
  // The encoder is fetched when a code is shown, not in the landing page's first load.
  const { create } = await import('qrcode');
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) path += `M${col + 4} ${row + 4}h1v1h-1z`;
    }
  }
  return { size: modules.size + 8, path };
}

/**
 * A QR code as an inline SVG drawn from qrcode's module matrix: no canvas, no data URL and no
 * injected markup, so it needs nothing from the Content-Security-Policy, and it stays sharp when
 * printed or zoomed. The label says what it holds; the text itself is shown beside it.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [drawn, setDrawn] = useState<{ text: string; size: number; path: string } | null>(null);
  useEffect(() => {
    let current = true;
    qrPath(text).then((qr) => current && setDrawn({ text, ...qr }), () => undefined);
    return () => {
      current = false;
    };
  }, [text]);
  if (!drawn || drawn.text !== text) return null;
  return (
    <svg className="qr" role="img" aria-label={label} viewBox={`0 0 ${drawn.size} ${drawn.size}`} shapeRendering="crispEdges" data-testid="qr">
      <rect width={drawn.size} height={drawn.size} fill="#fff" />
      <path d={drawn.path} fill="#000" />
    </svg>
  );
}
