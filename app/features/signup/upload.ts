import { ApiError } from '../../lib/api.ts';

/**
 * Uploads a photo to POST /api/photos.php (multipart field `photo`) with XHR, which, unlike fetch,
 * reports upload progress. Resolves with the server's answer; rejects with an ApiError.
 */
export function uploadPhoto(file: File, onProgress: (percent: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/photos.php');
    xhr.setRequestHeader('X-Request-Type', 'client');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: { error?: { code?: string; message?: string; details?: Record<string, string> } } | null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve(body);
      } else {
        reject(new ApiError(xhr.status, body?.error?.code ?? 'server_error', body?.error?.message ?? xhr.statusText, body?.error?.details ?? {}));
      }
    };
    xhr.onerror = () => reject(new Error('network'));
    const data = new FormData();
    data.append('photo', file);
    xhr.send(data);
  });
}
