import { describe, expect, it } from 'vitest';
import { withReturn } from './return-path.ts';

describe('withReturn', () => {
  it('adds the way back as the last parameter, encoded', () => {
    expect(withReturn('/credits', '/chats/12')).toBe('/credits?return=%2Fchats%2F12');
    expect(withReturn('/directdebit?package=3&discount=A%20B', '/members/7/chat')).toBe('/directdebit?package=3&discount=A%20B&return=%2Fmembers%2F7%2Fchat');
  });

  it('leaves the address as it is without one', () => {
    expect(withReturn('/credits/repeat-order', null)).toBe('/credits/repeat-order');
    expect(withReturn('/credits?need=5', undefined)).toBe('/credits?need=5');
    expect(withReturn('/credits', '')).toBe('/credits');
  });
});
