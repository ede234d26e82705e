import { describe, expect, it } from 'vitest';
import { parseRoute } from './useHashRoute';

describe('the hash route', () => {
  it('is the booking flow for no hash, the root and anything unknown', () => {
    for (const hash of ['', '#', '#/', '#/nowhere', '#main', '#/place', '#/place/', '#/place/abc', '#/place/0', '#/place/-3', '#/place/1.5', '#/place/12/x', '#/place/99999999999']) {
      expect(parseRoute(hash), hash).toEqual({ name: 'book' });
    }
  });

  it('names the screens', () => {
    expect(parseRoute('#/manage')).toEqual({ name: 'manage' });
    expect(parseRoute('#/manage/')).toEqual({ name: 'manage' });
    expect(parseRoute('#/admin')).toEqual({ name: 'admin' });
    expect(parseRoute('#/staff')).toEqual({ name: 'staff' });
    expect(parseRoute('#staff')).toEqual({ name: 'staff' });
  });

  it('opens a place\'s week from a site\'s cancel SMS', () => {
    expect(parseRoute('#/place/12')).toEqual({ name: 'book', placeId: 12 });
    expect(parseRoute('#/place/12/')).toEqual({ name: 'book', placeId: 12 });
    expect(parseRoute('#place/7')).toEqual({ name: 'book', placeId: 7 });
  });

  it('opens a place\'s week at a day with a time picked from a vaccine finder\'s deep link', () => {
    expect(parseRoute('#/place/12/2026-11-27/09:30')).toEqual({ name: 'book', placeId: 12, at: { day: '2026-11-27', time: '09:30' } });
    expect(parseRoute('#/place/12/2026-11-27/09:30/')).toEqual({ name: 'book', placeId: 12, at: { day: '2026-11-27', time: '09:30' } });
    for (const hash of ['#/place/12/2026-02-30/09:30', '#/place/12/2026-11-27/24:00', '#/place/12/2026-11-27/9:30', '#/place/0/2026-11-27/09:30',
      '#/place/12/27.11.2026/09:30', '#/place/12/2026-11-27/09:30/X', '#/place/12/2026-11-27/09:30/pcr/x', '#/place/12/2026-11-27']) {
      expect(parseRoute(hash), hash).toEqual({ name: 'book' });
    }
  });

  it('names the service of a deep link at a place with several, and nothing else after it', () => {
    expect(parseRoute('#/place/12/2026-11-27/09:30/pcr')).toEqual({ name: 'book', placeId: 12, at: { day: '2026-11-27', time: '09:30' }, service: 'pcr' });
    expect(parseRoute('#/place/12/2026-11-27/09:30/dose-1/')).toEqual({ name: 'book', placeId: 12, at: { day: '2026-11-27', time: '09:30' }, service: 'dose-1' });
    for (const hash of ['#/place/12/2026-11-27/09:30/PCR', '#/place/12/2026-11-27/09:30/p%20cr', '#/place/12/2026-11-27/09:30/a_b',
      `#/place/12/2026-11-27/09:30/${'a'.repeat(33)}`, '#/place/12/2026-11-27/25:30/pcr']) {
      expect(parseRoute(hash), hash).toEqual({ name: 'book' });
    }
  });

  it('fills the code in from a reminder\'s link, as printed on the ticket', () => {
    expect(parseRoute('#/manage/K7Q2MX')).toEqual({ name: 'manage', code: 'K7Q2MX' });
    expect(parseRoute('#/manage/k7q2m-x4p9a')).toEqual({ name: 'manage', code: 'K7Q2M-X4P9A' });
    expect(parseRoute('#/manage/%20K7Q2M-X4P9A%20')).toEqual({ name: 'manage', code: 'K7Q2M-X4P9A' });
  });

  it('fills nothing in from a manage link whose code is not one', () => {
    for (const hash of ['#/manage/%E0%A4%A', '#/manage/<script>', '#/manage/a%20b', `#/manage/${'A'.repeat(33)}`]) {
      expect(parseRoute(hash), hash).toEqual({ name: 'manage' });
    }
  });

  it('opens a waiting-list entry from its offer SMS\'s link', () => {
    const token = '0123456789abcdef0123456789abcdef';
    expect(parseRoute(`#/waitlist/${token}`)).toEqual({ name: 'waitlist', token });
    expect(parseRoute(`#/waitlist/${token}/`)).toEqual({ name: 'waitlist', token });
    expect(parseRoute(`#/waitlist/${token.toUpperCase()}`)).toEqual({ name: 'waitlist', token });
  });

  it('is the booking flow for a waiting-list link whose token is not one', () => {
    for (const hash of ['#/waitlist', '#/waitlist/', '#/waitlist/abc', `#/waitlist/${'g'.repeat(32)}`, `#/waitlist/${'a'.repeat(33)}`, '#/waitlist/%E0%A4%A', `#/waitlist/${'a'.repeat(32)}/x`]) {
      expect(parseRoute(hash), hash).toEqual({ name: 'book' });
    }
  });

  it('does not take a place or a screen with more parts', () => {
    expect(parseRoute('#/staff/1')).toEqual({ name: 'book' });
    expect(parseRoute('#/manage/ABC/DEF')).toEqual({ name: 'book' });
  });

  it('is the staff screen on the sign-in provider\'s answer, whatever the hash', () => {
    expect(parseRoute('#/place/12', '?code=abc&state=xyz')).toEqual({ name: 'staff' });
    expect(parseRoute('', '?error=access_denied&state=xyz')).toEqual({ name: 'staff' });
    expect(parseRoute('#/manage', '?code=abc')).toEqual({ name: 'manage' });
  });

  it('is the admin screen on an answer whose state names it, as the admin screen sent it', () => {
    expect(parseRoute('', '?code=abc&state=xyz%3Badmin')).toEqual({ name: 'admin' });
    expect(parseRoute('', '?error=access_denied&state=xyz;admin')).toEqual({ name: 'admin' });
    expect(parseRoute('', '?code=abc&state=xyz;staff')).toEqual({ name: 'staff' });
    expect(parseRoute('', '?code=abc&state=admin')).toEqual({ name: 'staff' });
  });

  it('opens the privacy page', () => {
    expect(parseRoute('#/privacy')).toEqual({ name: 'privacy' });
    expect(parseRoute('#/privacy/1')).toEqual({ name: 'book' });
  });
});
