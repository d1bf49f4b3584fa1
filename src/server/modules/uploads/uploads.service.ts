import { DOC_KINDS } from '../../../shared/constants';
import { UPLOAD_RULES, checkUpload, type SignedUploadReply, type UploadKind } from '../../../shared/uploads';
import type { AppContext } from '../../context';
import { badRequest } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { makeStorageKey } from '../../storage/keys';

export const UPLOAD_MSG = {
  unknownKind: (given: string) =>
    `"${given}" is not a kind of document that can be uploaded. Use directory=${DOC_KINDS.join(', ')}.`,
  missingName: 'Say which file is being uploaded: fileName and fileType are required.',
  video: 'Video uploads are not supported. Upload a photo instead.',
  badSize: 'fileSize must be the size of the file in bytes.',
} as const;

/** The kind named by `directory`, or a 400 that lists the kinds there are. */
export function docKind(directory: string | undefined): UploadKind {
  if (!directory || !(DOC_KINDS as readonly string[]).includes(directory)) throw badRequest(UPLOAD_MSG.unknownKind(directory ?? ''));
  return directory as UploadKind;
}

/**
 * Signs one upload (docs/product/api.md §6 Uploads): checks the file against the rules of its kind
 * (src/shared/uploads.ts), makes the key on the server — company/kind/random/sanitized name, so
 * nothing the client sends becomes a path — and asks the storage for a URL bound to that key,
 * content type and size. The caller has checked the permission of the kind.
 */
export async function signUpload(
  { storage, config }: AppContext,
  user: CurrentUser,
  kind: UploadKind,
  file: { fileName?: string; fileType?: string; fileSize?: string },
): Promise<SignedUploadReply> {
  if (file.fileName === undefined || file.fileType === undefined) throw badRequest(UPLOAD_MSG.missingName);
  let size: number | undefined;
  if (file.fileSize !== undefined && file.fileSize !== '') {
    if (!/^\d{1,15}$/.test(file.fileSize)) throw badRequest(UPLOAD_MSG.badSize);
    size = Number(file.fileSize);
  }
  const check = checkUpload(kind, { name: file.fileName, type: file.fileType, size });
  if (!check.ok) throw badRequest(check.message);
  const { maxBytes } = UPLOAD_RULES[kind];
  const key = makeStorageKey(user.companyId, kind, file.fileName);
  const signed = await storage.signUpload({ key, contentType: check.contentType, maxBytes, exactBytes: size });
  // Absolute, so another system can PUT to it as given (docs/product/api.md §6): local storage
  // signs a path of this app, which is made a URL of PUBLIC_URL. `url` stays as stored (a path).
  const signedRequest = signed.signedRequest.startsWith('/') ? `${config.publicUrl}${signed.signedRequest}` : signed.signedRequest;
  return { ...signed, signedRequest, maxBytes: size ?? maxBytes };
}
