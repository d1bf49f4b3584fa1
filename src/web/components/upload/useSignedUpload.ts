import { useCallback, useEffect, useRef, useState } from 'react';
import { TIMING } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import type { UploadKind } from '../../../shared/uploads';
import { UploadError, uploadWithProgress, type UploadedFile } from './signedUpload';

export type UploadStatus = 'idle' | 'uploading' | 'done' | 'error';

export interface SignedUpload {
  status: UploadStatus;
  /** 0..100 while uploading. */
  progress: number;
  /** Name of the file being (or last) uploaded. */
  fileName: string | null;
  /** The finished upload (status 'done'). */
  file: UploadedFile | null;
  /**
   * What went wrong, word for word from docs/product/messages.md (signed URL, storage, invalid response, not
   * logged in) or the file check of src/shared/uploads.ts. With status 'error' the UI shows
   * MSG.uploadError above it; a rejected file (wrong type, too big) leaves status 'idle'.
   */
  error: string | null;
  /** True TIMING.uploadRetryAfterMs (10 s) after a failed upload: then show the Retry control. */
  canRetry: boolean;
  /** Uploads one file; resolves with it, or null when it failed or was cancelled. */
  upload: (file: File) => Promise<UploadedFile | null>;
  /** docs/product/rules.md: retry clears the file, so the person can pick it (or another) again. */
  retry: () => void;
  /** Stops an upload in progress and clears everything. */
  cancel: () => void;
}

/**
 * One signed upload of docs/product/api.md §6 with the states a UI needs: spinner/progress while uploading,
 * the docs/product/messages.md messages on failure and the Retry control that appears 10 seconds later.
 * A pending upload is cancelled when the component unmounts.
 */
export function useSignedUpload(kind: UploadKind, opts: { onUploaded?: (file: UploadedFile) => void } = {}): SignedUpload {
  const [status, setStatus] = useState<UploadStatus>('idle');
  const [progress, setProgress] = useState(0);
  const [fileName, setFileName] = useState<string | null>(null);
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [canRetry, setCanRetry] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onUploaded = useRef(opts.onUploaded);
  useEffect(() => {
    onUploaded.current = opts.onUploaded;
  });

  const clearTimer = () => {
    if (retryTimer.current) clearTimeout(retryTimer.current);
    retryTimer.current = null;
  };

  useEffect(
    () => () => {
      controller.current?.abort();
      clearTimer();
    },
    [],
  );

  const reset = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    clearTimer();
    setStatus('idle');
    setProgress(0);
    setFileName(null);
    setFile(null);
    setError(null);
    setCanRetry(false);
  }, []);

  const upload = useCallback(
    async (picked: File): Promise<UploadedFile | null> => {
      controller.current?.abort();
      clearTimer();
      const ac = new AbortController();
      controller.current = ac;
      setStatus('uploading');
      setProgress(0);
      setFileName(picked.name);
      setFile(null);
      setError(null);
      setCanRetry(false);
      try {
        const done = await uploadWithProgress(kind, picked, {
          signal: ac.signal,
          onProgress: (f) => {
            if (controller.current === ac) setProgress(Math.round(f * 100));
          },
        });
        if (controller.current !== ac) return null;
        controller.current = null;
        setStatus('done');
        setFile(done);
        onUploaded.current?.(done);
        return done;
      } catch (err) {
        if (controller.current !== ac || (err as Error).name === 'AbortError') return null;
        controller.current = null;
        if (err instanceof UploadError && err.stage === 'check') {
          // Nothing was sent: say why and let them pick another file straight away.
          setStatus('idle');
          setFileName(null);
          setError(err.message);
          return null;
        }
        setStatus('error');
        setError(err instanceof UploadError ? err.message : MSG.uploadError);
        retryTimer.current = setTimeout(() => setCanRetry(true), TIMING.uploadRetryAfterMs);
        return null;
      }
    },
    [kind],
  );

  return { status, progress, fileName, file, error, canRetry, upload, retry: reset, cancel: reset };
}
