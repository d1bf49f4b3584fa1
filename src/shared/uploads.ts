import { DOC_KINDS, type DocKind } from './constants';
import type { Action } from './permissions';

/**
 * What may be uploaded, per kind, and how big (docs/product/api.md §6 Uploads, docs/product/api.md §1). The web checks a
 * file with `checkUpload` before asking for a signed URL; the server applies the same function
 * when it signs, and the signed URL itself carries the size limit and content type.
 */
export type UploadKind = DocKind | 'media';
export const UPLOAD_KINDS: readonly UploadKind[] = [...DOC_KINDS, 'media'];

const MiB = 1024 * 1024;

/**
 * Spreadsheets of tickets (docs/product/imports.md §3 Excel mapping). `.xls` and `.ods` are signed so that the
 * import can name their kind and ask for .xlsx (docs/product/imports.md §10), the same answer on every route.
 */
export const SPREADSHEET_TYPES = {
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['xlsx'],
  'application/vnd.ms-excel': ['xls'],
  'application/vnd.oasis.opendocument.spreadsheet': ['ods'],
  'text/csv': ['csv'],
} as const satisfies Record<string, readonly string[]>;

/**
 * Photos. No SVG (it can carry script and we serve files from our own origin) and no HEIC
 * (the thumbnailer cannot read it; phones convert to JPEG when a browser picks a photo).
 */
export const IMAGE_TYPES = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
} as const satisfies Record<string, readonly string[]>;

/** Packets, dig-safe tickets, NRA and permit documents: a PDF, or a photo of the paper. */
export const DOCUMENT_TYPES = { 'application/pdf': ['pdf'], ...IMAGE_TYPES } as const satisfies Record<string, readonly string[]>;

type TypeTable = Readonly<Record<string, readonly string[]>>;

export interface UploadRule {
  /** Content type → the file extensions that may carry it. */
  types: TypeTable;
  maxBytes: number;
  /** What a person is asked to pick, e.g. "a PDF or an image (JPEG, PNG, …)". */
  describe: string;
}

const DOCUMENT_RULE: UploadRule = { types: DOCUMENT_TYPES, maxBytes: 25 * MiB, describe: 'a PDF or a photo (JPEG, PNG, GIF, WebP, AVIF)' };

export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  excel: { types: SPREADSHEET_TYPES, maxBytes: 25 * MiB, describe: 'an Excel workbook (.xlsx) or a CSV file' },
  work_packet: DOCUMENT_RULE,
  dig_file: DOCUMENT_RULE,
  nra_file: DOCUMENT_RULE,
  permit: DOCUMENT_RULE,
  media: { types: IMAGE_TYPES, maxBytes: 20 * MiB, describe: 'a photo (JPEG, PNG, GIF, WebP, AVIF)' },
};

/** Longest file name accepted from the client; the stored name is shortened further. */
export const FILE_NAME_MAX = 255;

/** For `<input accept=…>` and the Mantine Dropzone `accept` prop. */
export function acceptFor(kind: UploadKind): string[] {
  const types = UPLOAD_RULES[kind].types;
  return [...Object.keys(types), ...Object.values(types).flatMap((exts) => exts.map((e) => `.${e}`))];
}

export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

function extensionOf(fileName: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(fileName.trim());
  return m ? m[1].toLowerCase() : '';
}

/**
 * The content type to upload with, or null when the file is not allowed for this kind.
 * Browsers report '' (or application/octet-stream) for types they do not know, and some report
 * a .csv as application/vnd.ms-excel: then the extension decides.
 */
export function resolveUploadType(kind: UploadKind, fileName: string, fileType: string): string | null {
  const types = UPLOAD_RULES[kind].types;
  const type = fileType.trim().toLowerCase().split(';')[0].trim();
  const ext = extensionOf(fileName);
  const byExt = Object.entries(types).find(([, exts]) => exts.includes(ext))?.[0] ?? null;
  if (type === '' || type === 'application/octet-stream') return byExt;
  if (type === 'application/vnd.ms-excel' && byExt === 'text/csv') return byExt;
  if (type === 'application/csv' || type === 'text/comma-separated-values') return types['text/csv'] ? 'text/csv' : null;
  if (type === 'image/jpg' || type === 'image/pjpeg') return types['image/jpeg'] ? 'image/jpeg' : null;
  return types[type] ? type : null;
}

/** Words for the common kinds of file ("a PDF", "a Word document"); null when unknown. */
export function describeFileType(fileType: string, fileName = ''): string | null {
  const type = fileType.trim().toLowerCase().split(';')[0].trim();
  const ext = extensionOf(fileName);
  if (type === 'application/pdf' || ext === 'pdf') return 'a PDF';
  if (type.startsWith('image/') || ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'heic', 'heif', 'svg', 'bmp', 'tif', 'tiff'].includes(ext)) {
    return `an image${ext ? ` (.${ext})` : ''}`;
  }
  if (type.startsWith('video/')) return 'a video';
  if (type === 'application/vnd.oasis.opendocument.spreadsheet' || ext === 'ods') return 'an OpenDocument spreadsheet (.ods)';
  if (type === 'application/vnd.ms-excel' || ext === 'xls') return 'an old Excel workbook (.xls)';
  if (type.includes('spreadsheet') || ext === 'xlsx') return 'an Excel workbook';
  if (type === 'text/csv' || ext === 'csv') return 'a CSV file';
  if (type.includes('word') || ['doc', 'docx'].includes(ext)) return 'a Word document';
  if (type.startsWith('text/') || ext === 'txt') return 'a text file';
  if (type.includes('zip') || ext === 'zip') return 'a zip archive';
  return null;
}

export type UploadCheck = { ok: true; contentType: string } | { ok: false; message: string };

/** One rule for both sides: the web runs it before uploading, the server before signing. */
export function checkUpload(kind: UploadKind, file: { name: string; type: string; size?: number }): UploadCheck {
  const rule = UPLOAD_RULES[kind];
  if (!file.name.trim()) return { ok: false, message: 'The file has no name. Choose the file again.' };
  if (file.name.length > FILE_NAME_MAX) {
    return { ok: false, message: `The file name is longer than ${FILE_NAME_MAX} characters. Rename the file and upload it again.` };
  }
  const contentType = resolveUploadType(kind, file.name, file.type);
  if (!contentType) {
    // What the file is, in words a person uses: never a raw MIME type.
    const kindOf = describeFileType(file.type, file.name);
    const what = kindOf ? `"${file.name}" is ${kindOf}, which` : `"${file.name}"`;
    return { ok: false, message: `${what} cannot be uploaded here. Choose ${rule.describe}.` };
  }
  if (file.size !== undefined && file.size > rule.maxBytes) {
    return {
      ok: false,
      message: `"${file.name}" is ${formatBytes(file.size)}; files here can be at most ${formatBytes(rule.maxBytes)}. Choose a smaller file.`,
    };
  }
  if (file.size === 0) return { ok: false, message: `"${file.name}" is empty. Choose another file.` };
  return { ok: true, contentType };
}

/** Which permission signing an upload of this kind needs (the matrix of docs/product/roles-and-statuses.md §2). */
export const UPLOAD_ACTION = {
  excel: 'jobs.write',
  work_packet: 'jobs.write',
  dig_file: 'tickets.edit',
  nra_file: 'tickets.edit',
  permit: 'tickets.edit',
  media: 'tickets.annotate',
} as const satisfies Record<UploadKind, Action>;

/** The answer of both sign calls. The browser PUTs the file to `signedRequest` with `headers`. */
export interface SignedUploadReply {
  signedRequest: string;
  url: string;
  /** Headers the PUT must carry (Content-Type, and x-amz-acl for S3). */
  headers: Record<string, string>;
  maxBytes: number;
}
