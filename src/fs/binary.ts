import { open } from 'node:fs/promises';
import { extname } from 'node:path';

const IMAGE = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'ico', 'webp', 'tif', 'tiff', 'psd', 'heic', 'avif'];
const OTHER = [
  'pdf',
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  'zst',
  '7z',
  'rar',
  'tar',
  'jar',
  'war',
  'ear',
  'class',
  'dex',
  'apk',
  'exe',
  'dll',
  'so',
  'dylib',
  'o',
  'a',
  'lib',
  'obj',
  'bin',
  'wasm',
  'pyc',
  'pyo',
  'node',
  'dmg',
  'iso',
  'img',
  'mp3',
  'mp4',
  'm4a',
  'wav',
  'ogg',
  'flac',
  'aac',
  'avi',
  'mov',
  'mkv',
  'webm',
  'wmv',
  'ttf',
  'otf',
  'woff',
  'woff2',
  'eot',
  'sqlite',
  'sqlite3',
  'db',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'parquet',
  'npy',
  'npz',
  'pkl',
  'pt',
  'onnx',
  'safetensors',
  'gguf',
];
const IMAGES = new Set(IMAGE);
const BINARIES = new Set(OTHER);

/** Why a file cannot be shown as text judging by its name, or undefined. */
export function binaryByName(path: string): string | undefined {
  const ext = extname(path).slice(1).toLowerCase();
  if (IMAGES.has(ext)) return `an image (.${ext})`;
  if (BINARIES.has(ext)) return `a binary file (.${ext})`;
  return undefined;
}

/** A NUL byte in the first 8 KB means binary, as git and grep decide. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, 8192).includes(0);
}

/** The first 8 KB of a file, for `looksBinary`. */
export async function headBytes(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
