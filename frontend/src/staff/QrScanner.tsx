import { BrowserQRCodeReader, type IScannerControls } from '@zxing/browser';
import { useEffect, useRef } from 'react';
import { useStaffI18n } from './staffTexts';

/**
 * The camera, read by zxing until it finds a QR code; the first one read is handed on and the camera
 * stops. The back camera where a device has one. Nothing of the picture leaves the browser.
 */
export function QrScanner({ onCode, onFailed }: { onCode: (text: string) => void; onFailed: (detail: string) => void }) {
  const { t } = useStaffI18n();
  const video = useRef<HTMLVideoElement>(null);
  const handlers = useRef({ onCode, onFailed });
  handlers.current = { onCode, onFailed };

  useEffect(() => {
    let controls: IScannerControls | undefined;
    let done = false;
    const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 200 });
    reader
      .decodeFromConstraints({ video: { facingMode: 'environment' } }, video.current!, (result, _error, scanner) => {
        if (!result || done) return;
        done = true;
        scanner.stop();
        handlers.current.onCode(result.getText());
      })
      .then((started) => {
        controls = started;
        if (done) started.stop();
      })
      .catch((error: unknown) => {
        if (!done) handlers.current.onFailed(error instanceof Error ? error.message : String(error));
      });
    return () => {
      done = true;
      controls?.stop();
    };
  }, []);

  return (
    <div className="scanner">
      <video ref={video} aria-label={t('cameraView')} muted playsInline />
      <p className="hint">{t('cameraHint')}</p>
    </div>
  );
}
