import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';

/** An image as the model receives it: base64 data and its media type (`image/png`). */
export interface ImageData {
  mediaType: string;
  data: string;
}

/**
 * Images for the model (Read of a picture, `@shot.png`): PNG, JPEG, GIF and WebP, the formats
 * every provider takes. A large one is scaled down with `sharp` (a prebuilt binary in its npm
 * package, loaded only when a picture is read) to a long edge of 1568 px — what Anthropic scales
 * to anyway, and within OpenAI's and Gemini's limits — and re-encoded as JPEG when still over the
 * size limit. Where sharp cannot load, the file goes as it is when under the limit, and the note
 * says so; over the limit it is refused with what to do.
 */
const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** The long edge an image is scaled down to. */
const MAX_EDGE = 1568;
/** The most bytes of one image sent (Anthropic's 5 MB limit applies to the base64 text: 3.75 MB of image). */
const MAX_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4);

/** The media type of an image file the model can be shown, by its name; undefined for anything else. */
export function imageType(path: string): string | undefined {
  return IMAGE_TYPES[extname(path).slice(1).toLowerCase()];
}

/** The media type the bytes say (magic numbers), so a misnamed file is not sent under the wrong type. */
function sniffImage(b: Uint8Array): string | undefined {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return 'image/gif';
  if (b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50 && b[0] === 0x52) return 'image/webp';
  return undefined;
}

interface LoadedImage {
  image: ImageData;
  /** One line for the model and the UI: the file's format, size, and what was done to it. */
  note: string;
  originalBytes: number;
}

type Sharp = typeof import('sharp').default;
let sharpModule: Promise<Sharp | undefined> | undefined;
/** sharp, or undefined where its binary cannot load (an unusual platform): never throws. */
function loadSharp(): Promise<Sharp | undefined> {
  return (sharpModule ??= import('sharp').then(
    (m) => m.default,
    () => undefined,
  ));
}

const kb = (n: number) => (n < 1024 * 1024 ? `${Math.round(n / 1024)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** Reads an image for the model. Never throws: an error string says what is wrong and what to do. */
export async function loadImage(
  abs: string,
  display: string,
  opts: { maxEdge?: number; maxBytes?: number /** Tests: as where sharp cannot load. */; withoutSharp?: boolean } = {},
): Promise<LoadedImage | { error: string }> {
  const maxEdge = opts.maxEdge ?? MAX_EDGE;
  const maxBytes = opts.maxBytes ?? MAX_BYTES;
  let bytes: Buffer;
  try {
    bytes = await readFile(abs);
  } catch (e) {
    return { error: `cannot read ${display}: ${(e as Error).message}` };
  }
  const type = sniffImage(bytes);
  if (!type) return { error: `${display} is not a PNG, JPEG, GIF or WebP image (its bytes say otherwise)` };
  const name = type.slice(6).toUpperCase();
  const sharp = opts.withoutSharp ? undefined : await loadSharp();
  if (!sharp) {
    if (bytes.length > maxBytes)
      return {
        error: `${display} is ${kb(bytes.length)}, over the ${kb(maxBytes)} a model takes, and it cannot be scaled down here (the sharp library did not load); make a smaller copy and use that`,
      };
    return {
      image: { mediaType: type, data: bytes.toString('base64') },
      note: `${name}, ${kb(bytes.length)}, sent as it is (not scaled: the sharp library did not load)`,
      originalBytes: bytes.length,
    };
  }
  try {
    const meta = await sharp(bytes, { animated: false }).metadata();
    const w = meta.width ?? 0;
    const h = meta.height ?? 0;
    const big = Math.max(w, h) > maxEdge;
    if (!big && bytes.length <= maxBytes) {
      return {
        image: { mediaType: type, data: bytes.toString('base64') },
        note: `${name}, ${w}×${h}, ${kb(bytes.length)}`,
        originalBytes: bytes.length,
      };
    }
    let pipeline = sharp(bytes, { animated: false }).rotate();
    if (big) pipeline = pipeline.resize(maxEdge, maxEdge, { fit: 'inside', withoutEnlargement: true });
    let out = await (type === 'image/jpeg' ? pipeline.jpeg({ quality: 85 }) : pipeline.png()).toBuffer({ resolveWithObject: true });
    let mediaType = type === 'image/jpeg' ? 'image/jpeg' : 'image/png';
    if (out.data.length > maxBytes) {
      out = await sharp(out.data).jpeg({ quality: 75 }).toBuffer({ resolveWithObject: true });
      mediaType = 'image/jpeg';
    }
    if (out.data.length > maxBytes)
      return { error: `${display} is still ${kb(out.data.length)} after scaling, over the ${kb(maxBytes)} a model takes` };
    return {
      image: { mediaType, data: out.data.toString('base64') },
      note: `${name}, ${w}×${h}, ${kb(bytes.length)}; scaled to ${out.info.width}×${out.info.height}${mediaType !== type ? ' JPEG' : ''}, ${kb(out.data.length)}`,
      originalBytes: bytes.length,
    };
  } catch (e) {
    return { error: `${display} could not be decoded as an image: ${(e as Error).message}` };
  }
}
