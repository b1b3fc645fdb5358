/**
 * What an uploaded attachment is, judged by its content (the name and the browser's type are not
 * trusted): the magic numbers of png, jpg, gif, pdf and zip; text is UTF-8 without control characters.
 * The name's extension must agree with the content.
 */
import type { AttachmentType } from '../../shared/monitor';

const starts = (buf: Uint8Array, sig: number[]) => sig.every((b, i) => buf[i] === b);

export function sniff(buf: Uint8Array): AttachmentType | null {
  if (starts(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts(buf, [0xff, 0xd8, 0xff])) return 'jpg';
  if (starts(buf, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (starts(buf, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (starts(buf, [0x50, 0x4b, 0x03, 0x04]) || starts(buf, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    if (!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) return 'txt';
  } catch {
    /* not UTF-8 */
  }
  return null;
}

const EXTENSIONS: Record<AttachmentType, string[]> = {
  png: ['png'],
  jpg: ['jpg', 'jpeg'],
  gif: ['gif'],
  pdf: ['pdf'],
  zip: ['zip'],
  txt: ['txt', 'log'],
};

export const MIME: Record<AttachmentType, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
};

/** The type of a file named `name` with content `buf`, or null when either is not allowed. */
export function attachmentType(name: string, buf: Uint8Array): AttachmentType | null {
  const type = sniff(buf);
  if (!type) return null;
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return ext && EXTENSIONS[type].includes(ext) ? type : null;
}
