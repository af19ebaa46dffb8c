import { randomBytes } from 'node:crypto';
import { adminToken, bearer, createCustomer, json, signIn, staffCall, type TestContext, valueDate } from '../app';
import { file, multipart, pdf, png } from '../multipart';

/** A customer the fuzzer acts as, or whose objects it asks for. */
export interface Person {
  userId: string;
  email: string;
  password: string;
  token: string;
  accountNumber: string;
}

/**
 * The data the fuzzer's requests point at: customers and, created through the API on first use,
 * their objects (a funded account and a ledger entry, a loan, a card request, a payee, a KYC
 * submission with its files, a profile picture) and a contact message. Valid requests use these
 * real ids, so they get past "not found" into the service.
 */
export class World {
  private readonly memo = new Map<string, Promise<string>>();

  constructor(private readonly ctx: TestContext) {}

  /**
   * A live staff session: the test app's admin session while it answers, else a new sign-in
   * (ticket and TOTP; a second one within 30 seconds waits for the next code).
   */
  staffToken = async (): Promise<string> => adminToken(this.ctx);

  /** A staff session of its own, for a call that ends the session it runs in (sign-out): a new sign-in each time. */
  freshStaffToken = async (): Promise<string> => adminToken(this.ctx, { fresh: true });

  /** The staff session used to set up data: the same live one (a call that ended it makes the next one sign in again). */
  private async setupStaff(): Promise<string> {
    return adminToken(this.ctx);
  }

  /** A new verified customer with money in both accounts. */
  async newCustomer(): Promise<Person> {
    const customer = await createCustomer(this.ctx);
    const person = { ...customer };
    await this.entryId(person);
    return person;
  }

  /** A staff call ended every other staff session (revoke-others): adminToken finds the cached one dead and signs in again. */
  forgetStaffSession(): void {}

  /** A fresh session of a customer (for calls that end the session they run in). */
  freshToken = async (person: Person): Promise<string> => signIn(this.ctx, person.email, person.password);

  private once(person: Person | null, what: string, create: () => Promise<string>): Promise<string> {
    const key = `${person?.userId ?? 'bank'} ${what}`;
    let found = this.memo.get(key);
    if (!found) {
      found = create();
      this.memo.set(key, found);
    }
    return found;
  }

  private async call(method: 'POST' | 'PATCH' | 'PUT', url: string, token: string | null, payload: unknown, extra: Record<string, string> = {}) {
    const response = await staffCall(this.ctx, {
      method,
      url,
      headers: { ...(token ? bearer(token) : {}), 'idempotency-key': `setup-${randomBytes(8).toString('hex')}`, ...extra },
      ...(payload === undefined ? {} : { payload: payload as string }),
    });
    if (response.statusCode >= 300) throw new Error(`setting up fuzz data: ${method} ${url} answered ${response.statusCode} ${response.body}`);
    return json(response);
  }

  /** A staff credit to both accounts: the customer has money to move, and a ledger entry to point at. */
  entryId = (person: Person) =>
    this.once(person, 'entry', async () => {
      const staff = await this.setupStaff();
      const credit = (account: string) =>
        this.call('POST', `/api/transaction/admin/${person.userId}`, staff, {
          amount: 5000,
          transactionType: 'credit',
          date: valueDate(-1),
          description: 'Fuzz opening funds',
          reason: 'Setting up the fuzz test',
          account,
        });
      await credit('savings');
      return (await credit('checking')).data.entryId as string;
    });

  loanId = (person: Person) =>
    this.once(person, 'loan', async () => {
      const body = await this.call('POST', '/api/loans', person.token, {
        loanAmount: 5000,
        loanType: 'personal',
        loanDuration: 24,
        loanPurpose: 'A new kitchen',
      });
      return body.data._id as string;
    });

  cardRequestId = (person: Person) =>
    this.once(person, 'card', async () => (await this.call('POST', '/api/cards/requests', person.token, { cardType: 'debit' })).data._id as string);

  payeeId = (person: Person) =>
    this.once(person, 'payee', async () => {
      const body = await this.call('POST', '/api/beneficiaries', person.token, {
        name: 'Jordan Payee',
        accountNumber: '12345678',
        routingNumber: '021000021',
        bankName: 'Chase',
      });
      return body.data._id as string;
    });

  kycSubmissionId = (person: Person) =>
    this.once(person, 'kyc', async () => {
      const form = multipart({
        passportImageFile: file('passport.png', 'image/png', await png()),
        documentType: 'passport',
        documentFile: file('id.pdf', 'application/pdf', pdf()),
        proofOfAddressFile: file('bill.pdf', 'application/pdf', pdf()),
        dateOfBirth: '1990-05-17',
      });
      await this.call('POST', '/api/user/verification', person.token, form.payload, form.headers);
      const row = await this.ctx.database.db.selectFrom('kyc_submissions').select('id').where('user_id', '=', person.userId).executeTakeFirstOrThrow();
      return row.id;
    });

  kycFileId = (person: Person) =>
    this.once(person, 'kyc file', async () => {
      await this.kycSubmissionId(person);
      const row = await this.ctx.database.db
        .selectFrom('stored_files')
        .select('id')
        .where('owner_id', '=', person.userId)
        .where('purpose', '=', 'kyc_passport')
        .executeTakeFirstOrThrow();
      return row.id;
    });

  /** The person's user id, once they have a profile picture (so reading it answers the picture). */
  withProfilePicture = (person: Person) =>
    this.once(person, 'picture', async () => {
      const form = multipart({ profilePicture: file('me.png', 'image/png', await png()) });
      await this.call('PATCH', '/api/user/profile-picture', person.token, form.payload, form.headers);
      return person.userId;
    });

  contactMessageId = () =>
    this.once(null, 'contact', async () => {
      const body = await this.call('POST', '/api/contacts', null, {
        name: 'Sam Visitor',
        email: 'sam.visitor@example.com',
        subject: 'Opening hours',
        message: 'When are you open on Saturdays?',
      });
      return body.data._id as string;
    });
}

/**
 * Which real id a path parameter takes, by the operation's path: the one thing the document cannot
 * tell. A parameter no rule knows is generated from its schema (and rarely finds anything).
 */
const ID_RULES: Array<[RegExp, (world: World, person: Person) => string | Promise<string>]> = [
  [/\/user\/admin\/email\/\{email\}$/, (_world, person) => person.email],
  [/\/profile-picture\/\{userId\}$/, (world, person) => world.withProfilePicture(person)],
  [/\/loans\/\{id\}/, (world, person) => world.loanId(person)],
  [/\/cards\/requests\/\{id\}/, (world, person) => world.cardRequestId(person)],
  [/\/beneficiaries\/\{id\}/, (world, person) => world.payeeId(person)],
  [/\/contacts\/\{id\}/, (world) => world.contactMessageId()],
  [/\/kyc\/\{submissionId\}/, (world, person) => world.kycSubmissionId(person)],
  [/\/verification\/files\/\{fileId\}/, (world, person) => world.kycFileId(person)],
  [/\/transaction\/admin\/\{id\}/, (world, person) => world.entryId(person)],
  [/\{userId\}|\/user\/admin\/(account\/)?\{id\}$/, (_world, person) => person.userId],
];

export async function realIdFor(world: World, path: string, person: Person): Promise<string | undefined> {
  const rule = ID_RULES.find(([pattern]) => pattern.test(path));
  return rule ? rule[1](world, person) : undefined;
}

/** Operations whose success ends the session they run in: each of their requests gets a fresh one. */
export const endsSession = (path: string): boolean => /\/(signout|change-password)$/.test(path);

/** Operations whose success ends the user's other sessions (the setup staff session among them). */
export const endsOtherSessions = (path: string): boolean => /\/sessions\/revoke-others$/.test(path);
