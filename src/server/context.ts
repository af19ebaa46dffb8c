import { SessionCache } from './auth/session-cache';
import type { Config } from './config';
import type { DB, Notices } from './db/database';
import type { SessionUser } from './db/schema';
import type { Logger } from './lib/logger';
import { type Ledger, LedgerWriter } from './ledger/writer';
import { ledgerAnswers } from './transactions/line';
import { bulkAnswers } from './bulk-payments/service';
import type { Mailer } from './mail/mailer';
import { type BankSigner, loadBankSigner } from './signing/keys';

/** Time, injectable: services and jobs ask the clock, so tests can run a simulated day. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** The bank's dependencies, built once in app.ts and handed to every service call. */
export interface AppContext {
  /** The database, or the transaction a caller already opened. */
  db: DB;
  /** The ledger's only way in: every posting goes through it (this process's writer, or a cluster primary's). */
  ledger: Ledger;
  mailer: Mailer;
  clock: Clock;
  config: Config;
  log: Logger;
  /** The bank's signing key (statements, ledger anchors): BANK_SIGNING_KEY_FILE or DATA_DIR's. */
  signer: BankSigner;
  /** The live sessions this process looked up (auth/session-cache.ts); serves nothing without notices. */
  sessions: SessionCache;
}

/** Who is acting and from where (the audit log records both). */
export interface Actor {
  user: SessionUser;
  sessionId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** What a service function takes: the dependencies and the acting user (null when signed out). */
export interface ServiceContext extends AppContext {
  actor: Actor | null;
}

/** A context whose actor is known (routes behind a sign-in guard). */
export interface ActorContext extends AppContext {
  actor: Actor;
}

/** The same context on another database handle (a transaction). */
export const withDb = <C extends AppContext>(ctx: C, db: DB): C => ({ ...ctx, db });

/**
 * The process's dependencies: one ledger writer and one session cache per database handle, made
 * here and nowhere else. `notices`: the handle's notifications (createDatabase's `channels`): the
 * session cache serves only while they carry the session changes (servingChannels, which says no
 * when SESSION_CACHE=false); without them every request looks its session up.
 */
export function createAppContext(dependencies: { config: Config; db: DB; mailer: Mailer; log: Logger; clock?: Clock; notices?: Notices | null }): AppContext {
  const { notices, ...rest } = dependencies;
  return {
    ...rest,
    sessions: new SessionCache(notices ?? null),
    signer: loadBankSigner(dependencies.config),
    clock: dependencies.clock ?? systemClock,
    ledger: new LedgerWriter(dependencies.db, {
      log: dependencies.log,
      now: () => (dependencies.clock ?? systemClock).now(),
      batchesInFlight: dependencies.config.ledgerBatchesInFlight,
      timeZone: dependencies.config.timeZone,
      answers: ledgerAnswers,
      atomicAnswers: bulkAnswers,
    }),
  };
}
