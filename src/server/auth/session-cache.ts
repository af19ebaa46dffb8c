import type { Notices } from '../db/database';
import { sessionCacheLookups } from '../lib/metrics';
import type { SessionRow } from './repository';

/** The channel migration 66's triggers announce a user's session changes on, with the user's id. */
export const SESSION_CHANGES_CHANNEL = 'll_session_changes';
/** What a process that serves HTTP listens to (createDatabase's `channels`): the session changes, unless SESSION_CACHE=false. */
export const servingChannels = (config: { sessionCache: boolean }): string[] => (config.sessionCache ? [SESSION_CHANGES_CHANNEL] : []);

/** Sessions one process keeps; past it the oldest cached goes first. */
export const SESSION_CACHE_MAX = 20_000;
/** Users whose last drop is remembered one by one (a lookup takes well under a second; thousands of changes a second fit). */
export const DROPS_REMEMBERED = 10_000;

/**
 * The live sessions this process looked up, by token hash, so that a signed-in request does not wait
 * for a lookup of its own (ADR 008, "The session cache"). What it may serve is bounded by three
 * rules, each with its test in tests/api/session-cache.test.ts:
 * - **Every change is heard.** Migration 66 announces any change that ends a session or changes
 *   what it allows (the session, its user, a staff member's factors) with the user's id, and every
 *   cached session of that user is dropped. The process that made the change heard it before its
 *   change answered (every pool connection listens: db/database.ts Notices); other processes hear it
 *   about a round trip later. The cache is empty and serves nothing while the held listener is down.
 * - **No stale fill.** A lookup that was under way while its user was dropped (or the listener came
 *   and went) may have read the row before the change: its answer is not cached. A change of
 *   another user does not refuse it (every change refused every lookup under way, which a bank
 *   with sign-ins every millisecond would hardly ever fill).
 * - **Nothing is decided from the cache but "live".** A cached session is served only while its
 *   idle touch is not due (a minute) and it has not expired; anything else (the touch, an idle or
 *   expired end) goes to the database, whose row may be newer (another process's touch).
 */
export class SessionCache {
  private readonly sessions = new Map<string, { row: SessionRow; userId: string }>();
  private readonly tokensOf = new Map<string, Set<string>>();
  /** Bumped by every drop and clear; a lookup begins in the current one. */
  private generation = 0;
  /** The generation of the last clear: any fill begun before it is refused. */
  private clearedIn = 0;
  /**
   * By user, the generation of their last drop: a fill of that user's session begun before it is
   * refused (another user's change says nothing of it). The oldest are forgotten past
   * DROPS_REMEMBERED, moving `clearedIn` up to them instead.
   */
  private readonly droppedIn = new Map<string, number>();
  private on: boolean;

  /** `notices`: serves nothing unless they listen to SESSION_CHANGES_CHANNEL (servingChannels decides). */
  constructor(
    notices: Pick<Notices, 'channels' | 'listening' | 'onNotice' | 'onListening'> | null,
    private readonly max = SESSION_CACHE_MAX,
  ) {
    const heard = notices?.channels.includes(SESSION_CHANGES_CHANNEL) ? notices : null;
    this.on = heard?.listening ?? false;
    heard?.onNotice((channel, payload) => {
      if (channel === SESSION_CHANGES_CHANNEL) this.dropUser(payload);
    });
    heard?.onListening((listening) => {
      this.clear();
      this.on = listening;
    });
  }

  /** Whether anything is served from the cache now (the listener is up). */
  get serving(): boolean {
    return this.on;
  }

  /** The cached session of a token hash, if any. */
  get(tokenHash: string): SessionRow | undefined {
    if (!this.on) return undefined;
    const found = this.sessions.get(tokenHash)?.row;
    sessionCacheLookups.inc({ result: found ? 'hit' : 'miss' });
    return found;
  }

  /** The generation a lookup starts in: hand it to fill() with the lookup's answer. */
  begin(): number {
    return this.generation;
  }

  /** Caches a live session looked up in `generation`, unless its user was dropped (or all were) since. */
  fill(generation: number, tokenHash: string, row: SessionRow): void {
    if (!this.on || generation < this.clearedIn || generation < (this.droppedIn.get(row.id) ?? 0)) return;
    this.forget(tokenHash);
    if (this.sessions.size >= this.max) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.forget(oldest);
    }
    this.sessions.set(tokenHash, { row, userId: row.id });
    let tokens = this.tokensOf.get(row.id);
    if (!tokens) this.tokensOf.set(row.id, (tokens = new Set()));
    tokens.add(tokenHash);
  }

  /** Drops every cached session of a user (a change was announced). */
  dropUser(userId: string): void {
    this.generation += 1;
    this.droppedIn.delete(userId);
    this.droppedIn.set(userId, this.generation);
    if (this.droppedIn.size > DROPS_REMEMBERED) {
      const [oldest, droppedIn] = this.droppedIn.entries().next().value as [string, number];
      this.droppedIn.delete(oldest);
      this.clearedIn = Math.max(this.clearedIn, droppedIn);
    }
    for (const tokenHash of this.tokensOf.get(userId) ?? []) this.sessions.delete(tokenHash);
    this.tokensOf.delete(userId);
  }

  /** Forgets one token's session (this process looked it up again and found it ended or gone). */
  drop(tokenHash: string): void {
    this.forget(tokenHash);
  }

  private clear(): void {
    this.generation += 1;
    this.clearedIn = this.generation;
    this.droppedIn.clear();
    this.sessions.clear();
    this.tokensOf.clear();
  }

  private forget(tokenHash: string): void {
    const cached = this.sessions.get(tokenHash);
    if (!cached) return;
    this.sessions.delete(tokenHash);
    const tokens = this.tokensOf.get(cached.userId);
    tokens?.delete(tokenHash);
    if (tokens?.size === 0) this.tokensOf.delete(cached.userId);
  }
}
