/** Reads the pictures the bot draws back as pixels, for tests that look at them. */
import { createCanvas, loadImage } from '@napi-rs/canvas';

export type Rgb = [number, number, number];

/**
 * Decodes a PNG: its size, how many pixels are not near white (`ink`: a blank picture has none),
 * how many are not opaque, and a reader of one pixel's colour.
 */
export async function decodePng(png: Uint8Array) {
  const image = await loadImage(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  let ink = 0;
  let transparent = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i]! < 245 || data[i + 1]! < 245 || data[i + 2]! < 245) ink++;
    if (data[i + 3]! < 255) transparent++;
  }
  const pixel = (x: number, y: number): Rgb => {
    const i = (Math.round(y) * image.width + Math.round(x)) * 4;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  return { width: image.width, height: image.height, ink, transparent, pixel };
}
