import type { OwnPhoto } from '#common/api-types.ts';
import { ApiError } from './api.ts';

/**
 * POST /api/photos.php as multipart/form-data with upload progress (fetch cannot report it, XHR can).
 * Not retried: a failed upload is the member's to repeat, and the server answers clearly why.
 */
export function uploadPhoto(file: File, options: { isPrivate?: boolean; onProgress?: (percent: number) => void; fallbackMessage: string }): Promise<OwnPhoto> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/photos.php');
    xhr.setRequestHeader('X-Request-Type', 'client');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: { photo?: OwnPhoto; error?: { code: string; message: string } } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON
      }
      if (xhr.status === 201 && body?.photo) {
        options.onProgress?.(100);
        resolve(body.photo);
      } else {
        reject(new ApiError(xhr.status, body?.error?.code ?? 'server_error', body?.error?.message ?? options.fallbackMessage));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'server_error', options.fallbackMessage));
    const form = new FormData();
    form.set('photo', file);
    if (options.isPrivate) form.set('private', '1');
    xhr.send(form);
  });
}
