import { writeFileSync } from 'node:fs';
import { create } from 'qrcode';

const width = 640;
const height = 480;

/**
 * A QR code of the text as a Y4M video (4:2:0, a few identical frames) for Chromium's fake camera,
 * which loops it: --use-file-for-fake-video-capture. Y4M is a one-line header and raw planes per
 * frame, so no encoder is needed: luma black (16) or white (235) per module, chroma neutral (128).
 */
export function writeQrVideo(path: string, text: string, frames = 5): void {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const side = modules.size + 8; // four modules of quiet zone each side, the standard's minimum
  const scale = Math.floor((Math.min(width, height) * 0.8) / side);
  const left = Math.floor((width - side * scale) / 2);
  const top = Math.floor((height - side * scale) / 2);
  const luma = Buffer.alloc(width * height, 235);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let y = 0; y < scale; y++) {
        const start = (top + (row + 4) * scale + y) * width + left + (col + 4) * scale;
        luma.fill(16, start, start + scale);
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
