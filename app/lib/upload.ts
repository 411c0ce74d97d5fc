import type { OwnPhoto } from '#common/api-types.ts';
import { ApiError } from './api.ts';

/**
 * POSTs a multipart form with upload progress (fetch cannot report it, XHR can) and resolves with the
 * JSON answer of a 200 or 201. Not retried by itself: callers that may retry pass an idempotency key.
 */
export function postForm<T>(path: string, form: FormData, options: { idempotencyKey?: string; onProgress?: (percent: number) => void; fallbackMessage: string }): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('X-Request-Type', 'client');
    xhr.setRequestHeader('Accept', 'application/json');
    if (options.idempotencyKey) xhr.setRequestHeader('Idempotency-Key', options.idempotencyKey);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: (T & { error?: { code: string; message: string } }) | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if ((xhr.status === 200 || xhr.status === 201) && body) {
        options.onProgress?.(100);
        resolve(body);
      } else {
        reject(new ApiError(xhr.status, body?.error?.code ?? 'server_error', body?.error?.message ?? options.fallbackMessage));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'server_error', options.fallbackMessage));
    xhr.send(form);
  });
}

/** POST /api/photos.php: a photo for the member's own profile. A failed upload is the member's to repeat. */
export async function uploadPhoto(file: File, options: { isPrivate?: boolean; onProgress?: (percent: number) => void; fallbackMessage: string }): Promise<OwnPhoto> {
  const form = new FormData();
  form.set('photo', file);
  if (options.isPrivate) form.set('private', '1');
  return (await postForm<{ photo: OwnPhoto }>('/api/photos.php', form, options)).photo;
}
