import { describe, expect, it } from 'vitest';
import { DROPS_REMEMBERED, SESSION_CHANGES_CHANNEL, SessionCache } from '../../src/server/auth/session-cache';
import type { SessionRow } from '../../src/server/auth/repository';

/** Notices a test drives: announce a change, or take the listener down and up. */
function fakeNotices(listening = true, channels: string[] = [SESSION_CHANGES_CHANNEL]) {
  const notice: Array<(channel: string, payload: string) => void> = [];
  const state: Array<(listening: boolean) => void> = [];
  const notices = {
    channels,
    listening,
    onNotice: (handler: (channel: string, payload: string) => void) => void notice.push(handler),
    onListening: (handler: (up: boolean) => void) => void state.push(handler),
    announce: (userId: string) => notice.forEach((handler) => handler(SESSION_CHANGES_CHANNEL, userId)),
    set: (up: boolean) => {
      notices.listening = up;
      state.forEach((handler) => handler(up));
    },
  };
  return notices;
}

const row = (userId: string, sessionId = `s-${userId}`) => ({ id: userId, session_id: sessionId }) as unknown as SessionRow;

describe('SessionCache', () => {
  it('serves what it was filled with, and drops every session of a user whose change is announced', () => {
    const notices = fakeNotices();
    const cache = new SessionCache(notices);
    cache.fill(cache.begin(), 'a1', row('alice', 'one'));
    cache.fill(cache.begin(), 'a2', row('alice', 'two'));
    cache.fill(cache.begin(), 'b1', row('bob'));
    expect(cache.get('a1')?.session_id).toBe('one');
    notices.announce('alice');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')?.id).toBe('bob');
  });

  it('does not cache a lookup that was under way while anything was dropped (the fill race)', () => {
    const notices = fakeNotices();
    const cache = new SessionCache(notices);
    const started = cache.begin();
    notices.announce('alice');
    cache.fill(started, 'a1', row('alice'));
    expect(cache.get('a1')).toBeUndefined();
    cache.fill(cache.begin(), 'a1', row('alice'));
    expect(cache.get('a1')?.id).toBe('alice');
  });

  it("caches a lookup under way while another user's change was announced: only its own user's refuses it", () => {
    const notices = fakeNotices();
    const cache = new SessionCache(notices);
    const started = cache.begin();
    notices.announce('bob');
    cache.fill(started, 'a1', row('alice'));
    expect(cache.get('a1')?.id).toBe('alice');
    const again = cache.begin();
    notices.announce('bob');
    notices.announce('alice');
    notices.announce('carol');
    cache.fill(again, 'a2', row('alice', 'two'));
    expect(cache.get('a2')).toBeUndefined();
  });

  it('refuses every lookup begun before a drop it no longer remembers one by one', () => {
    const notices = fakeNotices();
    const cache = new SessionCache(notices);
    const started = cache.begin();
    notices.announce('alice');
    for (let user = 0; user < DROPS_REMEMBERED; user += 1) notices.announce(`user-${user}`);
    // Alice's drop is forgotten; a lookup of hers begun before it must still not be cached.
    cache.fill(started, 'a1', row('alice'));
    expect(cache.get('a1')).toBeUndefined();
    cache.fill(cache.begin(), 'a1', row('alice'));
    expect(cache.get('a1')?.id).toBe('alice');
  });

  it('serves nothing while the listener is down, comes back empty, and refuses fills begun before', () => {
    const notices = fakeNotices();
    const cache = new SessionCache(notices);
    cache.fill(cache.begin(), 'a1', row('alice'));
    const started = cache.begin();
    notices.set(false);
    expect(cache.serving).toBe(false);
    expect(cache.get('a1')).toBeUndefined();
    cache.fill(cache.begin(), 'b1', row('bob'));
    notices.set(true);
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('b1')).toBeUndefined();
    cache.fill(started, 'c1', row('carol'));
    expect(cache.get('c1')).toBeUndefined();
  });

  it('serves nothing without notices, and nothing before its listener first comes up', () => {
    const none = new SessionCache(null);
    none.fill(none.begin(), 'a1', row('alice'));
    expect(none.get('a1')).toBeUndefined();
    const notices = fakeNotices(false);
    const cache = new SessionCache(notices);
    cache.fill(cache.begin(), 'a1', row('alice'));
    expect(cache.get('a1')).toBeUndefined();
  });

  it('serves nothing from notices that do not carry the session changes (SESSION_CACHE=false listens to none)', () => {
    const notices = fakeNotices(true, ['some_other_channel']);
    const cache = new SessionCache(notices);
    cache.fill(cache.begin(), 'a1', row('alice'));
    expect(cache.serving).toBe(false);
    expect(cache.get('a1')).toBeUndefined();
  });

  it('keeps at most its limit, the oldest filled going first', () => {
    const cache = new SessionCache(fakeNotices(), 2);
    cache.fill(cache.begin(), 'a1', row('alice'));
    cache.fill(cache.begin(), 'b1', row('bob'));
    cache.fill(cache.begin(), 'c1', row('carol'));
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('b1')?.id).toBe('bob');
    expect(cache.get('c1')?.id).toBe('carol');
    // A dropped user's other entries stay consistent (nothing of alice's is left to drop).
    cache.dropUser('alice');
    expect(cache.get('b1')?.id).toBe('bob');
  });
});
