import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { StaffRole, StaffStatus } from '../../shared/staff-roles';

// Table types for Kysely. Each domain adds its tables here, next to its migration.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A timestamp with a database default: optional on insert. */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T, string | T>;

export type VerificationStatus = 'awaiting' | 'pending' | 'verified' | 'failed';

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  phone: Generated<string>;
  address: Generated<string>;
  state: Generated<string>;
  date_of_birth: string | null;
  sex: string | null;
  country_code: string | null;
  occupation: string | null;
  annual_income_range: string | null;
  account_type: string | null;
  ssn_tin: string | null;
  is_admin: Generated<boolean>;
  is_blocked: Generated<boolean>;
  is_account_disabled: Generated<boolean>;
  is_email_confirmed: Generated<boolean>;
  verification_status: Generated<VerificationStatus>;
  profile_picture: string | null;
  /** Outgoing payments are refused until then (too many wrong transfer codes); null: no hold. */
  payments_held_until: Timestamp | null;
  /** Wrong transfer codes count from here (a hold or its release starts the count again). */
  code_failures_since: Timestamp | null;
  closed_at: Timestamp | null;
  /** Staff only (is_admin): their role and their own access (ADR 022); null for customers. */
  staff_role: StaffRole | null;
  staff_status: StaffStatus | null;
  created_at: CreatedAt;
  updated_at: DefaultTimestamp;
}

/** A link to set a first password, mailed to an invited staff member (ADR 022). */
export interface StaffInvitationsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  invited_by: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  created_at: CreatedAt;
  last_seen_at: DefaultTimestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  user_agent: string | null;
  ip: string | null;
}

/** A device a user has signed in from: the SHA-256 of its ll_device cookie. */
export interface KnownDevicesTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  first_seen_at: CreatedAt;
}

export type CodePurpose = 'email_verification' | 'email_change' | 'transfer';

export interface OneTimeCodesTable {
  id: Generated<string>;
  user_id: string;
  purpose: CodePurpose;
  code_hash: string;
  /** What the code authorizes (a hash of the transfer, the new email...): a code never works for anything else. */
  binding: string;
  payload: Json<Record<string, unknown>> | null;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  created_at: CreatedAt;
}

export type SignInScope = 'customer' | 'staff';

/** Failed sign-ins of one account (`account:<email>`) or address (`address:<ip>`), per scope. */
export interface SignInThrottleTable {
  scope: SignInScope;
  subject: string;
  failures: Generated<number>;
  last_failure_at: Timestamp | null;
  blocked_until: Timestamp | null;
}

export interface PasswordResetsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface AuditLogTable {
  id: Generated<string>;
  at: CreatedAt;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_user_id: string | null;
  target_type: string | null;
  target_id: string | null;
  before: Json<unknown> | null;
  after: Json<unknown> | null;
  reason: string | null;
  ip: string | null;
  /** Read only (set by the insert trigger): the salted SHA-256 of the personal part. */
  personal_hash: Generated<string>;
  /** Read only: the personal part (actor_email, ip, before, after, reason) was erased. */
  erased: Generated<boolean>;
}

/**
 * `audit_log` is a view (inserts go through it); these are its tables (migration
 * 2026-11-24-40-audit-chain, ADR 014). A record's chained part:
 */
export interface AuditRecordsTable {
  id: Generated<number>;
  at: CreatedAt;
  actor_id: string | null;
  action: string;
  target_user_id: string | null;
  target_type: string | null;
  target_id: string | null;
  personal_hash: string;
}

/** Its erasable personal part: the JSON text that was hashed, and its salt. */
export interface AuditPersonalTable {
  audit_id: number;
  salt: string;
  data: string;
}

export interface AuditChainTable {
  position: number;
  audit_id: number;
  prev_hash: string;
  hash: string;
  sealed_at: DefaultTimestamp;
}

export interface AuditUnsealedTable {
  audit_id: number;
}

/** Every anchor line written to ANCHOR_FILE (the file is the authority; this is the back office's list). */
export interface AnchorsTable {
  seq: number;
  ledger_position: number;
  ledger_hash: string;
  audit_position: number;
  audit_hash: string;
  at: Date | string;
  key_id: string;
  signature: string;
  line: string;
  /** The bank date a daily run anchored; null for "Anchor now". */
  daily_date: string | null;
  requested_by: string | null;
  recorded_at: CreatedAt;
}

export type LedgerAccountKind = 'savings' | 'checking' | 'bank_cash' | 'bank_operations' | 'external_clearing' | 'loans_receivable' | 'interest_income';

export interface LedgerAccountsTable {
  id: Generated<string>;
  /** Customer accounts: the customer's 10-digit account number (savings and checking share it). */
  number: string | null;
  owner_id: string | null;
  kind: LedgerAccountKind;
  name: string;
  currency: Generated<string>;
  balance: Generated<number>;
  allow_negative: Generated<boolean>;
  created_at: CreatedAt;
}

// Customer services (issue 5).
export type StoredFilePurpose = 'profile_picture' | 'kyc_passport' | 'kyc_document' | 'kyc_proof_of_address';
export type StoredMediaType = 'image/jpeg' | 'image/png' | 'application/pdf';

export interface StoredFilesTable {
  id: Generated<string>;
  owner_id: string;
  purpose: StoredFilePurpose;
  /** Random file name under DATA_DIR/uploads: never derived from anything the client sent. */
  storage_name: string;
  media_type: StoredMediaType;
  size_bytes: number;
  created_at: CreatedAt;
}

export type KycDocumentType = 'passport' | 'national_id' | 'drivers_license';
export type KycSubmissionStatus = 'pending' | 'verified' | 'failed';

export interface KycSubmissionsTable {
  id: Generated<string>;
  user_id: string;
  document_type: KycDocumentType;
  date_of_birth: string;
  passport_file_id: string;
  document_file_id: string;
  proof_of_address_file_id: string;
  status: Generated<KycSubmissionStatus>;
  reason: string | null;
  reviewed_by: string | null;
  reviewed_at: Timestamp | null;
  created_at: CreatedAt;
}

export type LoanType = 'auto' | 'home' | 'personal' | 'business';
export type LoanStatus = 'pending' | 'approved' | 'rejected' | 'withdrawn';

export interface LoansTable {
  id: Generated<string>;
  user_id: string;
  loan_type: LoanType;
  amount_cents: number;
  duration_months: number;
  purpose: string;
  annual_rate_bps: number;
  monthly_payment_cents: number;
  status: Generated<LoanStatus>;
  decision_reason: string | null;
  decided_by: string | null;
  decided_at: Timestamp | null;
  disbursement_entry_id: string | null;
  disbursed_at: Timestamp | null;
  installments_paid: Generated<number>;
  principal_repaid_cents: Generated<number>;
  interest_paid_cents: Generated<number>;
  repaid_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type CardType = 'debit' | 'credit';
export type CardRequestStatus = 'pending' | 'approved' | 'rejected' | 'shipped';

export interface CardRequestsTable {
  id: Generated<string>;
  user_id: string;
  card_type: CardType;
  status: Generated<CardRequestStatus>;
  note: string | null;
  decided_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface BeneficiariesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  account_number: string;
  routing_number: string;
  bank_name: string;
  created_at: CreatedAt;
}

export type EntryKind = 'opening' | 'transfer' | 'wire' | 'internal' | 'adjustment' | 'reversal' | 'loan' | 'standing_order';

export interface JournalEntriesTable {
  /** UUIDv7, made by the posting function. */
  id: string;
  /** The order entries were applied in (assigned under the account locks; gaps allowed). Not the chain position. */
  seq: Generated<number>;
  kind: EntryKind;
  description: string;
  /** YYYY-MM-DD; may differ from booked_at for staff entries. */
  value_date: string;
  booked_at: ColumnType<Date, Date | string, never>;
  author_id: string | null;
  /** The moved amount in cents: the sum of the entry's positive postings. */
  amount: number;
  reversal_of: string | null;
  details: Json<Record<string, unknown>> | null;
}

/** The hash chain: every committed entry, in the order the sealer chained it. Append-only. */
export interface LedgerChainTable {
  position: number;
  entry_id: string;
  prev_hash: string;
  hash: string;
  sealed_at: DefaultTimestamp;
}

/** Committed entries the sealer has not chained yet. */
export interface LedgerUnsealedTable {
  entry_id: string;
  seq: number;
  booked_at: Date;
}

export interface PostingsTable {
  id: Generated<string>;
  entry_id: string;
  entry_seq: number;
  account_id: string;
  /** Signed cents: positive raises the account's balance. */
  amount: number;
  balance_after: number;
  memo: string | null;
  counterparty: string | null;
}

export interface EntryNotesTable {
  id: Generated<number>;
  entry_id: string;
  description: string;
  author_id: string | null;
  created_at: CreatedAt;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response: Json<unknown>;
  entry_id: string | null;
  created_at: CreatedAt;
}

export interface ContactMessagesTable {
  id: Generated<string>;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  ip: string | null;
  created_at: CreatedAt;
  /** null = new: nobody in the back office has opened it yet. */
  read_at: Date | null;
}

export type MailStatus = 'pending' | 'sent' | 'expired';

/** Every email, written with the change that causes it and delivered by a job (ADR 010). */
export interface MailOutboxTable {
  id: Generated<number>;
  message_id: string;
  to_address: string;
  subject: string;
  body: string;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  /** A mail carrying a code or a link: not sent after this (the code no longer works). */
  expires_at: Timestamp | null;
  created_at: CreatedAt;
  sent_at: Timestamp | null;
}

// ---------------------------------------------------------------- second factors (ADR 011)

export type SecondFactorMethod = 'passkey' | 'totp' | 'recovery' | 'email';
/** Which sign-in a ticket came from: the customer sign-in or the back office's (staff only). */
export type SignInAudience = 'customer' | 'staff';

export interface PasskeysTable {
  id: Generated<string>;
  user_id: string;
  /** base64url, as the browser names the credential. */
  credential_id: string;
  /** The COSE public key. */
  public_key: Buffer;
  /** The authenticator's signature counter (0 when it keeps none). */
  counter: ColumnType<number, number | undefined, number>;
  transports: ColumnType<string[], string[] | undefined, string[]>;
  name: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
}

export interface TotpFactorsTable {
  user_id: string;
  /** Base32; never returned after enrolment. */
  secret: string;
  confirmed_at: Timestamp | null;
  last_used_step: number | null;
  created_at: CreatedAt;
}

export interface RecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface SignInTicketsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  audience: SignInAudience;
  methods: ColumnType<SecondFactorMethod[], SecondFactorMethod[], SecondFactorMethod[]>;
  attempts: Generated<number>;
  email_code_hash: string | null;
  email_code_sent_at: Timestamp | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
  /** Issued to a browser the owner has used: its emailed codes are not capped (ADR 016). */
  owners_device: Generated<boolean>;
}

/** Every emailed sign-in code, first or resent: the hourly cap of ADR 016 counts these. */
export interface SignInEmailCodesTable {
  id: Generated<number>;
  user_id: string;
  audience: SignInAudience;
  sent_at: Timestamp;
}

export type AccountRecoveryStatus = 'pending' | 'cancelled' | 'completed';

/** Support's recovery of a customer who lost every factor (ADR 025). */
export interface AccountRecoveriesTable {
  id: string;
  user_id: string;
  started_by: string | null;
  identity_check: string;
  status: ColumnType<AccountRecoveryStatus, AccountRecoveryStatus | undefined, AccountRecoveryStatus>;
  cancel_token_hash: string;
  created_at: Timestamp;
  effective_at: Timestamp;
  cancelled_at: Timestamp | null;
  cancelled_via: 'link' | 'session' | 'staff' | null;
  completed_at: Timestamp | null;
}

export type WebauthnChallengePurpose = 'registration' | 'sign_in' | 'step_up';

export interface WebauthnChallengesTable {
  id: Generated<string>;
  challenge: string;
  purpose: WebauthnChallengePurpose;
  user_id: string | null;
  ticket_id: string | null;
  audience: SignInAudience | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export type PaymentApprovalKind = 'transfer' | 'wire' | 'payment_request' | 'standing_order' | 'bulk';

/** A WebAuthn challenge derived from one payment (dynamic linking, ADR 024): works once, for that payment only. */
export interface PaymentApprovalsTable {
  id: Generated<string>;
  user_id: string;
  kind: PaymentApprovalKind;
  binding: string;
  nonce: string;
  challenge: string;
  amount_cents: number;
  payee: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

/** A public key the bank has signed with (statements, anchors); kept after a rotation. */
export interface SigningKeysTable {
  key_id: string;
  algorithm: Generated<'Ed25519'>;
  public_key: string;
  first_used_at: CreatedAt;
}

/** One notification of one customer (issue 14, ADR 013); `in_app` false: emailed only, kept so a retry is recognised. */
export interface NotificationsTable {
  id: string;
  user_id: string;
  kind: string;
  dedupe_key: string;
  title: string;
  body: string;
  link: string | null;
  in_app: boolean;
  emailed: boolean;
  created_at: Timestamp;
  read_at: Timestamp | null;
}

/** A customer's choice for one kind; no row: the contract's defaults. */
export interface NotificationPreferencesTable {
  user_id: string;
  kind: string;
  in_app: boolean;
  email: boolean;
  threshold_cents: number | null;
  updated_at: DefaultTimestamp;
}

/** How far a notifier has read (the ledger notifier: a ledger_chain position). */
export interface NotificationCursorsTable {
  name: string;
  position: number;
  updated_at: DefaultTimestamp;
}

/** A statement as issued: its exact bytes, what they cover, and the bank's signature. Append-only. */
export interface StatementsTable {
  id: string;
  user_id: string;
  account_id: string;
  account_kind: 'savings' | 'checking';
  /** YYYY-MM in time_zone. */
  period: string;
  time_zone: string;
  /** The account's postings with after_seq < entry_seq <= through_seq are its lines. */
  after_seq: number;
  through_seq: number;
  line_count: number;
  opening_cents: number;
  closing_cents: number;
  total_in_cents: number;
  total_out_cents: number;
  last_entry_id: string;
  ledger_chain_position: number;
  ledger_chain_hash: string;
  customer_name: string;
  account_number: string;
  pdf: Buffer;
  sha256: string;
  key_id: string;
  signature: string;
  issued_at: ColumnType<Date, Date | string, never>;
}

/** A month whose statements the monthly job has queued. */
export interface StatementRunsTable {
  period: string;
  accounts_queued: number;
  completed_at: DefaultTimestamp;
}

/** A customer's standing order: the mandate approved once, and where its schedule stands (ADR 019). */
export interface StandingOrdersTable {
  id: string;
  user_id: string;
  from_kind: 'savings' | 'checking';
  from_account_id: string;
  to_kind: 'own' | 'payee' | 'customer';
  /** The saved payee it was made from (informative: the payee's details are copied below). */
  payee_id: string | null;
  /** The account credited at this bank; null for a payee at another bank (external clearing). */
  to_account_id: string | null;
  to_account_number: string | null;
  to_routing_number: string | null;
  to_bank_name: string | null;
  payee_name: string;
  /** Confirmation of payee when the mandate was approved (ADR 029); null when nothing was checked. */
  name_check: 'match' | 'close_match' | 'no_match' | null;
  amount: number;
  description: string;
  frequency: 'once' | 'weekly' | 'monthly';
  start_date: string;
  end_date: string | null;
  count: number | null;
  status: 'active' | 'finished' | 'cancelled';
  next_index: Generated<number>;
  next_due_date: string | null;
  retry_at: Timestamp | null;
  attempts: Generated<number>;
  paid_count: Generated<number>;
  last_outcome: 'paid' | 'skipped' | 'retrying' | null;
  last_reason: string | null;
  last_due_date: string | null;
  last_at: Timestamp | null;
  created_at: ColumnType<Date, Date | string, never>;
  cancelled_at: Timestamp | null;
}

/** One settled occurrence of a standing order (paid or skipped): at most one per due date. */
export interface StandingOrderPaymentsTable {
  standing_order_id: string;
  due_date: string;
  outcome: 'paid' | 'skipped';
  reason: string | null;
  entry_id: string | null;
  attempts: number;
  settled_at: ColumnType<Date, Date | string, never>;
}

/** One customer asking another for money (issue 14, ADR 020); `payer_id` null: the `to` named no customer. */
export interface PaymentRequestsTable {
  id: string;
  requester_id: string;
  payer_id: string | null;
  to_text: string;
  amount_cents: number;
  note: string | null;
  status: ColumnType<PaymentRequestStoredStatus, PaymentRequestStoredStatus | undefined, PaymentRequestStoredStatus>;
  entry_id: string | null;
  created_at: Timestamp;
  answered_at: Timestamp | null;
  /** A pending request past this time is expired: it can no longer be paid (PAYMENT_REQUEST_EXPIRY_DAYS). */
  expires_at: Timestamp;
}

/** What a request row stores; "expired" is a pending one past its expires_at, computed when read. */
export type PaymentRequestStoredStatus = 'pending' | 'paid' | 'declined' | 'cancelled';

/** One closed bank day's trial balance (end of day, issue 15): append-only. */
export interface TrialBalancesTable {
  /** The bank date (BANK_TIMEZONE), YYYY-MM-DD. */
  day: string;
  starts_at: Date;
  ends_at: Date;
  time_zone: string;
  accounts_moved: number;
  opening_total: number;
  debits_total: number;
  credits_total: number;
  closing_total: number;
  unchanged_accounts: number;
  unchanged_balance: number;
  entries: number;
  created_at: CreatedAt;
}

/** An account that moved on a closed day: opening - debits + credits = closing (cents). */
export interface TrialBalanceLinesTable {
  day: string;
  account_id: string;
  opening: number;
  debits: number;
  credits: number;
  closing: number;
  /** The line's place in the report's order, from its account (set when the day is closed). */
  sort_key: string;
  /** 1, 2, ... in sort_key's order within the day (set when the day is closed): pages read a range of it. */
  position: number;
}

/** A staff note on a customer's page: append-only (erased, never deleted, when the customer is closed). */
export interface CustomerNotesTable {
  id: Generated<number>;
  user_id: string;
  author_id: string | null;
  author_email: string | null;
  body: string;
  created_at: CreatedAt;
  erased_at: Timestamp | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  known_devices: KnownDevicesTable;
  one_time_codes: OneTimeCodesTable;
  password_resets: PasswordResetsTable;
  sign_in_throttle: SignInThrottleTable;
  audit_log: AuditLogTable;
  audit_records: AuditRecordsTable;
  audit_personal: AuditPersonalTable;
  audit_chain: AuditChainTable;
  audit_unsealed: AuditUnsealedTable;
  anchors: AnchorsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_chain: LedgerChainTable;
  ledger_unsealed: LedgerUnsealedTable;
  journal_entries: JournalEntriesTable;
  postings: PostingsTable;
  entry_notes: EntryNotesTable;
  idempotency_keys: IdempotencyKeysTable;
  stored_files: StoredFilesTable;
  kyc_submissions: KycSubmissionsTable;
  loans: LoansTable;
  card_requests: CardRequestsTable;
  beneficiaries: BeneficiariesTable;
  contact_messages: ContactMessagesTable;
  mail_outbox: MailOutboxTable;
  passkeys: PasskeysTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_tickets: SignInTicketsTable;
  sign_in_email_codes: SignInEmailCodesTable;
  account_recoveries: AccountRecoveriesTable;
  staff_invitations: StaffInvitationsTable;
  webauthn_challenges: WebauthnChallengesTable;
  payment_approvals: PaymentApprovalsTable;
  signing_keys: SigningKeysTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  notification_cursors: NotificationCursorsTable;
  statements: StatementsTable;
  statement_runs: StatementRunsTable;
  standing_orders: StandingOrdersTable;
  standing_order_payments: StandingOrderPaymentsTable;
  payment_requests: PaymentRequestsTable;
  trial_balances: TrialBalancesTable;
  trial_balance_lines: TrialBalanceLinesTable;
  customer_notes: CustomerNotesTable;
  approvals: ApprovalsTable;
  bank_mode: BankModeTable;
}

/** Which kind of bank the database holds, recorded at the first start (one row, migration 69). */
export interface BankModeTable {
  only_row: Generated<boolean>;
  demo: boolean;
  recorded_at: CreatedAt;
}

/** A staff request waiting for a second staff member (four eyes, issue 15, ADR 023). */
export interface ApprovalsTable {
  id: string;
  kind: string;
  requested_by: string;
  requested_at: Timestamp;
  expires_at: Timestamp;
  customer_id: string | null;
  subject_user_id: string | null;
  summary: string;
  payload: ColumnType<unknown, string, string>;
  status: ColumnType<string, string | undefined, string>;
  decided_by: string | null;
  decided_at: Timestamp | null;
  reason: string | null;
  outcome: ColumnType<unknown, string | null | undefined, string | null>;
}

export type User = Selectable<UsersTable>;
/**
 * A user as a signed-in request knows it: every column but the password hash, which the session
 * lookup never reads (it is checked only where a password is, from a fresh read).
 */
export type SessionUser = Omit<User, 'password_hash'>;
/** The columns of a SessionUser, in the table's order (checked against the table's type). */
export const SESSION_USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'address',
  'state',
  'date_of_birth',
  'sex',
  'country_code',
  'occupation',
  'annual_income_range',
  'account_type',
  'ssn_tin',
  'is_admin',
  'is_blocked',
  'is_account_disabled',
  'is_email_confirmed',
  'verification_status',
  'profile_picture',
  'payments_held_until',
  'code_failures_since',
  'closed_at',
  'staff_role',
  'staff_status',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof SessionUser)[];
// Every column of SessionUser is listed: a column added to UsersTable and not here fails to compile.
true satisfies Exclude<keyof SessionUser, (typeof SESSION_USER_COLUMNS)[number]> extends never ? true : never;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type Passkey = Selectable<PasskeysTable>;
export type SignInTicket = Selectable<SignInTicketsTable>;
