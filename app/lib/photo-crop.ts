/**
 * Cropping a photo to the profile card's 5:6 before it is uploaded. The member moves and zooms the photo in a 5:6
 * frame; the browser draws the framed part on a canvas and uploads that as a JPEG. The server checks and re-encodes
 * it like any upload (content, metadata), so it needs no crop input of its own.
 */

/** The profile card's shape: 5 wide to 6 high (thumbnails are 200 × 240). */
export const CARD_RATIO = 5 / 6;
/** The longest crop side uploaded: 1200 × 1440 at most, under the server's 1600 px. */
const MAX_UNIT = 240;
const JPEG_QUALITY = 0.9;
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;

/** Where the frame sits: zoom (1 = the largest 5:6 part of the photo) and its centre, in image pixels. */
export interface CropState { zoom: number; cx: number; cy: number }
export interface CropRect { x: number; y: number; width: number; height: number }

const clamp = (v: number, min: number, max: number) => Math.min(Math.max(v, min), max);

/** The frame's size in image pixels at a zoom. */
function frameSize(width: number, height: number, zoom: number) {
  const base = width / height > CARD_RATIO ? { w: height * CARD_RATIO, h: height } : { w: width, h: width / CARD_RATIO };
  const z = clamp(zoom, MIN_ZOOM, MAX_ZOOM);
  return { w: base.w / z, h: base.h / z };
}

/** The starting frame: the whole width or height, centred. */
export function initialCrop(width: number, height: number): CropState {
  return { zoom: 1, cx: width / 2, cy: height / 2 };
}

/** Keeps the frame inside the photo and the zoom within its range. */
export function clampCrop(width: number, height: number, crop: CropState): CropState {
  const zoom = clamp(Number.isFinite(crop.zoom) ? crop.zoom : 1, MIN_ZOOM, MAX_ZOOM);
  const { w, h } = frameSize(width, height, zoom);
  return { zoom, cx: clamp(crop.cx, w / 2, width - w / 2), cy: clamp(crop.cy, h / 2, height - h / 2) };
}

/** The framed part of the photo, in image pixels: always 5:6 and inside the photo. */
export function cropRect(width: number, height: number, crop: CropState): CropRect {
  const c = clampCrop(width, height, crop);
  const { w, h } = frameSize(width, height, c.zoom);
  return { x: c.cx - w / 2, y: c.cy - h / 2, width: w, height: h };
}

/** Moves the frame by a distance in the frame's own widths and heights (a drag, an arrow key). */
export function moveCrop(width: number, height: number, crop: CropState, dx: number, dy: number): CropState {
  const { w, h } = frameSize(width, height, crop.zoom);
  return clampCrop(width, height, { ...crop, cx: crop.cx + dx * w, cy: crop.cy + dy * h });
}

/** The uploaded size: exactly 5:6 (5k × 6k px), as sharp as the framed part allows, at most 1200 × 1440. */
export function outputSize(rect: CropRect): { width: number; height: number } {
  const unit = clamp(Math.floor(rect.width / 5), 1, MAX_UNIT);
  return { width: unit * 5, height: unit * 6 };
}

/** How the photo sits in the frame, in percent of the frame (CSS left, top, width, height). */
export function placement(width: number, height: number, crop: CropState) {
  const r = cropRect(width, height, crop);
  return { left: (-r.x / r.width) * 100, top: (-r.y / r.height) * 100, width: (width / r.width) * 100, height: (height / r.height) * 100 };
}

/** Draws the framed part of a loaded image and encodes it as a JPEG. */
export function cropToBlob(image: HTMLImageElement, crop: CropState): Promise<Blob> {
  const rect = cropRect(image.naturalWidth, image.naturalHeight, crop);
  const size = outputSize(rect);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('no canvas'));
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, rect.x, rect.y, rect.width, rect.height, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no blob'))), 'image/jpeg', JPEG_QUALITY));
}
