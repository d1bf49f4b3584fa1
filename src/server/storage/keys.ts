import { MSG } from '../../shared/messages';
import { randomUUID } from 'node:crypto';
import { acceptsSniffed, sniffFileKind, SNIFF_BYTES, wrongKindMessage } from '../../shared/file-kinds';
import type { UploadKind } from '../../shared/uploads';
import { AppError, badRequest } from '../errors';
import type { Storage } from './storage';

/** Kinds of object the server stores: the upload kinds plus thumbnails it makes itself. */
export type StorageKind = UploadKind | 'thumbnail';
const STORAGE_KINDS: readonly string[] = ['excel', 'work_packet', 'dig_file', 'nra_file', 'permit', 'media', 'thumbnail'];

const STORED_NAME_MAX = 100;
/** One path segment of a key: starts with a letter or digit, then letters, digits, '.', '_', '-'. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A file name the client sent, made safe for a path and a URL: only the last path part, accents
 * folded, everything but letters, digits, '.', '_' and '-' replaced, no leading dot, at most
 * 100 characters with the extension kept. 'C:\\x\\..\\Pole 12 (ä).PDF' → 'Pole_12_a.PDF'.
 */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const extMatch = /\.([A-Za-z0-9]{1,10})$/.exec(base);
  const ext = extMatch ? extMatch[1] : '';
  const stem = (extMatch ? base.slice(0, extMatch.index) : base)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+/, '')
    .replace(/[._-]+$/, '')
    .slice(0, STORED_NAME_MAX - ext.length - 1)
    .replace(/[._-]+$/, '');
  return `${stem || 'file'}${ext ? `.${ext}` : ''}`;
}

/** The one place keys are made: `<companyId>/<kind>/<random id>/<sanitized file name>`. */
export function makeStorageKey(companyId: number, kind: StorageKind, fileName: string): string {
  if (!Number.isSafeInteger(companyId) || companyId <= 0) throw new Error(`bad company id for a storage key: ${companyId}`);
  if (!STORAGE_KINDS.includes(kind)) throw new Error(`unknown storage kind: ${kind}`);
  return `${companyId}/${kind}/${randomUUID()}/${sanitizeFileName(fileName)}`;
}

/** A key next to another, e.g. the thumbnail of an image: same company and random id, other kind. */
export function siblingStorageKey(key: string, kind: StorageKind, fileName: string): string {
  const parts = parseStorageKey(key);
  if (!parts) throw new Error(`not a storage key: ${key}`);
  return `${parts.companyId}/${kind}/${parts.id}/${sanitizeFileName(fileName)}`;
}

export interface KeyParts {
  companyId: number;
  kind: StorageKind;
  id: string;
  name: string;
}

/** The parts of a key this server made, or null for anything else (traversal, absolute paths, …). */
export function parseStorageKey(key: string): KeyParts | null {
  const parts = key.split('/');
  if (parts.length !== 4 || !parts.every((p) => SEGMENT.test(p))) return null;
  const [company, kind, id, name] = parts;
  if (!/^[1-9][0-9]{0,15}$/.test(company) || !STORAGE_KINDS.includes(kind)) return null;
  return { companyId: Number(company), kind: kind as StorageKind, id, name };
}

/** True for a key of the shape keys.ts makes; storage implementations refuse every other key. */
export function isValidKey(key: string): boolean {
  return key.length <= 1024 && key.split('/').every((p) => SEGMENT.test(p));
}

/** The url of `key` below `base` (the local files prefix, or the bucket's address): each segment encoded. */
export function urlBelow(base: string, key: string): string {
  return `${base}/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** The valid key of a url `urlBelow(base, …)` made, or null for any other url (query and hash ignored). */
export function keyBelow(base: string, url: string): string | null {
  const pathname = url.split(/[?#]/)[0];
  if (!pathname.startsWith(`${base}/`)) return null;
  let key: string;
  try {
    key = pathname
      .slice(base.length + 1)
      .split('/')
      .map((part) => decodeURIComponent(part))
      .join('/');
  } catch {
    return null;
  }
  return isValidKey(key) ? key : null;
}

/**
 * The storage key behind `url` when it is a url of our storage, for an object of this company
 * (and of one of `kinds`, when given); otherwise null. Use it before saving a url the client
 * sent back on a record, so nobody can attach another company's file or a foreign link.
 */
export function storageKeyOwnedBy(
  storage: Storage,
  companyId: number,
  url: string | null | undefined,
  kinds?: readonly StorageKind[],
): string | null {
  if (!url) return null;
  const key = storage.keyFromUrl(url);
  const parts = key ? parseStorageKey(key) : null;
  if (!parts || parts.companyId !== companyId) return null;
  if (kinds && !kinds.includes(parts.kind)) return null;
  return key;
}

/**
 * For services saving a record that points at an upload: the key of `url` when it is this
 * company's upload of an allowed kind and the object really exists; otherwise a 400 that says
 * what to do. `what` names the file for the message ("work packet", "permit", …).
 */
export async function requireUploadedFile(
  storage: Storage,
  companyId: number,
  url: string,
  kinds: readonly StorageKind[],
  what = 'file',
): Promise<{ key: string; size: number; contentType: string; name: string }> {
  const key = storageKeyOwnedBy(storage, companyId, url, kinds);
  if (!key) throw badRequest(MSG.uploadNotOurs(what));
  const stored = await storage.head(key);
  if (!stored) throw badRequest(MSG.uploadUnfinished(what));
  const parts = parseStorageKey(key)!;
  await assertFileKind(storage, key, parts.kind, what);
  return { key, ...stored, name: parts.name };
}

/**
 * docs/product/sessions-and-safety.md §10 "file kinds": the stored bytes must be of a kind the upload allows (a packet or
 * document a PDF or a photo, a ticket photo an image), whatever the name and the type the
 * browser claimed; otherwise 415 naming the kind expected. Workbooks are checked where they are
 * read (imports/read/workbook.ts), thumbnails are ours.
 */
export async function assertFileKind(storage: Storage, key: string, kind: StorageKind, what: string): Promise<void> {
  if (kind === 'excel' || kind === 'thumbnail') return;
  const wrong = wrongFileKind(await storage.readStart(key, SNIFF_BYTES), kind, what);
  if (wrong) throw wrong;
}

/** The 415 for bytes that are not of `kind`, or null when they are. */
export function wrongFileKind(bytes: Uint8Array, kind: Exclude<UploadKind, 'excel'>, what: string): AppError | null {
  const sniffed = sniffFileKind(bytes.subarray(0, SNIFF_BYTES));
  return acceptsSniffed(kind, sniffed) ? null : new AppError(415, wrongKindMessage(what, kind, sniffed));
}
