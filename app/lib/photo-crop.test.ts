import { describe, expect, it } from 'vitest';
import { clampCrop, cropRect, initialCrop, moveCrop, outputSize, placement } from './photo-crop.ts';

describe('cropping to the card\'s 5:6', () => {
  it('starts with the largest centred 5:6 part of a wide and of a tall photo', () => {
    expect(cropRect(1200, 600, initialCrop(1200, 600))).toEqual({ x: 350, y: 0, width: 500, height: 600 });
    expect(cropRect(500, 1000, initialCrop(500, 1000))).toEqual({ x: 0, y: 200, width: 500, height: 600 });
  });

  it('zooms in around the centre and never leaves the photo, however far it is moved', () => {
    const zoomed = cropRect(1200, 600, { zoom: 2, cx: 600, cy: 300 });
    expect(zoomed).toEqual({ x: 475, y: 150, width: 250, height: 300 });
    expect(cropRect(1200, 600, { zoom: 2, cx: -5000, cy: 9000 })).toEqual({ x: 0, y: 300, width: 250, height: 300 });
    expect(clampCrop(1200, 600, { zoom: 99, cx: 0, cy: 0 }).zoom).toBe(4);
    expect(clampCrop(1200, 600, { zoom: 0.1, cx: 0, cy: 0 }).zoom).toBe(1);
    expect(clampCrop(1200, 600, { zoom: Number.NaN, cx: 600, cy: 300 }).zoom).toBe(1);
  });

  it('moves by parts of the frame', () => {
    const moved = moveCrop(1200, 600, initialCrop(1200, 600), 0.5, 0);
    expect(cropRect(1200, 600, moved).x).toBe(600);
    // Up and down there is nowhere to go at zoom 1.
    expect(cropRect(1200, 600, moveCrop(1200, 600, moved, 0, 1)).y).toBe(0);
  });

  it('uploads exactly 5:6, at most 1200 × 1440, at least 5 × 6', () => {
    for (const rect of [cropRect(1200, 600, initialCrop(1200, 600)), cropRect(4000, 3000, initialCrop(4000, 3000)), cropRect(1, 1, initialCrop(1, 1)), cropRect(333, 777, initialCrop(333, 777))]) {
      const size = outputSize(rect);
      expect(size.width * 6).toBe(size.height * 5);
      expect(size.width).toBeLessThanOrEqual(1200);
      expect(size.width).toBeGreaterThanOrEqual(5);
    }
    expect(outputSize({ x: 0, y: 0, width: 500, height: 600 })).toEqual({ width: 500, height: 600 });
  });

  it('places the photo in the frame in percent', () => {
    expect(placement(1200, 600, initialCrop(1200, 600))).toEqual({ left: -70, top: -0, width: 240, height: 100 });
  });
});
