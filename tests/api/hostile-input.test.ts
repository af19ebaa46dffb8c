import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_DEEP_MESSAGE } from '../../src/server/plugins/json';
import { verifyLedger } from '../../src/server/ledger/verify';
import { adminToken, bearer, createCustomer, createTestApp, json, type TestContext, validSignUp, valueDate, staffCall } from '../support/app';
import { deepJson, deepObjectJson, encodeUrlText } from '../support/fuzz/hostile';

/**
 * The inputs the contract fuzzer once answered with a 500, pinned as plain API tests: a NUL in a
 * text field reached PostgreSQL (which cannot store one), year 0000 reached date arithmetic,
 * JSON nested thousands deep reached recursive code, and a balance correction raced the staff
 * postings of the same customer. Each must now be refused cleanly, naming the field at fault.
 */

let ctx: TestContext;
let admin: string;
let customer: Awaited<ReturnType<typeof createCustomer>>;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
  customer = await createCustomer(ctx);
});
afterAll(async () => ctx?.close());

const NUL = 'a\u0000b';
const key = () => `hostile-${randomBytes(8).toString('hex')}`;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string | null, payload?: unknown) =>
  staffCall(ctx, {
    method,
    url,
    headers: { ...(token ? bearer(token) : {}), 'idempotency-key': key() },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** A 400 in the API's error shape whose `fields` names `field`. */
function expectRefused(response: Awaited<ReturnType<typeof call>>, field: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = json(response);
  expect(typeof body.message).toBe('string');
  expect(typeof body.code).toBe('string');
  expect(Object.keys(body.fields ?? {}), `fields of ${response.body}`).toContain(field);
}

const transfer = {
  amount: 10,
  accountType: 'checking',
  accountNumber: '12345678',
  routingNumber: '021000021',
  bankName: 'First Example Bank',
  to: 'Jordan Payee',
};
const wire = {
  amount: 10,
  account: 'checking',
  beneficiaryName: 'Jordan Payee',
  beneficiaryAccount: 'DE89370400440532013000',
  bankName: 'Deutsche Bank',
  country: 'DE',
  swiftCode: 'DEUTDEFF',
  accountType: 'CHECKING',
};

describe('a NUL character in a text field is a 400 naming the field', () => {
  const bodyCases: Array<{
    name: string;
    method: Method;
    url: () => string;
    token: () => string | null;
    body: () => Record<string, unknown>;
    fields: string[];
  }> = [
    {
      name: 'sign-in',
      method: 'POST',
      url: () => '/api/auth/signin',
      token: () => null,
      body: () => ({ email: 'dana@example.com', password: 'Violet-Harbor-42' }),
      fields: ['email'],
    },
    // Outside the US the SSN/TIN is kept (and required), so it must be checked too.
    {
      name: 'sign-up',
      method: 'POST',
      url: () => '/api/auth/signup',
      token: () => null,
      body: () => validSignUp({ countryCode: '44', phone: '+44 20 7946 0958', ssnTIN: 'AB123456C' }),
      fields: ['firstName', 'lastName', 'address', 'ssnTIN'],
    },
    {
      name: 'contact form',
      method: 'POST',
      url: () => '/api/contacts',
      token: () => null,
      body: () => ({ name: 'Sam Visitor', email: 'sam@example.com', subject: 'Hours', message: 'When are you open?', phone: '+1 202 555 0101' }),
      fields: ['name', 'subject', 'message', 'phone'],
    },
    {
      name: 'profile',
      method: 'PATCH',
      url: () => '/api/user/profile',
      token: () => customer.token,
      body: () => ({ address: '1 Main Street', state: 'Ohio' }),
      fields: ['address', 'state'],
    },
    {
      name: 'payee',
      method: 'POST',
      url: () => '/api/beneficiaries',
      token: () => customer.token,
      // A new account each time: saving a payee twice answers the saved one without reading the new text.
      body: () => ({
        name: 'Jordan Payee',
        accountNumber: String(10_000_000 + Math.floor(Math.random() * 89_999_999)),
        routingNumber: '021000021',
        bankName: 'First Example Bank',
      }),
      fields: ['name', 'bankName'],
    },
    {
      name: 'loan application',
      method: 'POST',
      url: () => '/api/loans',
      token: () => customer.token,
      body: () => ({ loanAmount: 5000, loanType: 'personal', loanDuration: 24, loanPurpose: 'A new kitchen' }),
      fields: ['loanPurpose'],
    },
    { name: 'transfer', method: 'POST', url: () => '/api/transaction/transfer', token: () => customer.token, body: () => transfer, fields: ['to', 'bankName'] },
    {
      name: 'wire transfer',
      method: 'POST',
      url: () => '/api/transaction/wire-transfer',
      token: () => customer.token,
      body: () => wire,
      fields: ['beneficiaryName', 'bankName'],
    },
    {
      name: 'staff posting',
      method: 'POST',
      url: () => `/api/transaction/admin/${customer.userId}`,
      token: () => admin,
      body: () => ({ amount: 10, transactionType: 'credit', date: valueDate(), description: 'Goodwill', reason: 'Complaint resolved' }),
      fields: ['description', 'reason'],
    },
  ];

  for (const testCase of bodyCases) {
    for (const field of testCase.fields) {
      it(`${testCase.name}: ${field}`, async () => {
        // The same body without the NUL is not refused for that field: the NUL is what the 400 is about.
        const clean = await call(testCase.method, testCase.url(), testCase.token(), testCase.body());
        expect(clean.statusCode, clean.body).toBeLessThan(500);
        expect(Object.keys(json(clean).fields ?? {})).not.toContain(field);
        const response = await call(testCase.method, testCase.url(), testCase.token(), { ...testCase.body(), [field]: NUL });
        expectRefused(response, field);
      });
    }
  }

  const queryCases: Array<{ name: string; path: string; field: string; value: string }> = [
    { name: 'staff user search', path: '/api/user/admin', field: 'search', value: NUL },
    { name: 'audit log customer filter', path: '/api/admin/audit', field: 'customer', value: 'a\u0000@example.com' },
    { name: 'audit log action filter', path: '/api/admin/audit', field: 'action', value: NUL },
  ];
  for (const testCase of queryCases) {
    it(`${testCase.name}: ?${testCase.field}=`, async () => {
      const clean = await call('GET', `${testCase.path}?${testCase.field}=${encodeUrlText(testCase.value.replace('\u0000', ''))}`, admin);
      expect(clean.statusCode, clean.body).toBeLessThan(500);
      expect(Object.keys(json(clean).fields ?? {})).not.toContain(testCase.field);
      const response = await call('GET', `${testCase.path}?${testCase.field}=${encodeUrlText(testCase.value)}`, admin);
      expectRefused(response, testCase.field);
    });
  }
});

describe('dates at the ends of the calendar are a 400', () => {
  for (const date of ['0000-01-01', '9999-12-31']) {
    it(`a history filter from ${date}`, async () => {
      expectRefused(await call('GET', `/api/transaction?from=${date}`, customer.token), 'from');
      expectRefused(await call('GET', `/api/transaction/admin?to=${date}`, admin), 'to');
    });

    it(`a staff value date of ${date}`, async () => {
      const response = await call('POST', `/api/transaction/admin/${customer.userId}`, admin, {
        amount: 10,
        transactionType: 'credit',
        date,
        description: 'Goodwill',
        reason: 'Complaint resolved',
      });
      expectRefused(response, 'date');
    });
  }
});

describe('JSON nested thousands deep on a money call is a 400, not a stack overflow', () => {
  for (const [name, text] of [
    ['arrays 5,000 deep', deepJson(5_000)],
    ['arrays 10,000 deep', deepJson(10_000)],
    ['objects 7,500 deep', deepObjectJson(7_500)],
  ] as const) {
    it(name, async () => {
      for (const [url, token] of [
        ['/api/transaction/internal-transfer', customer.token],
        [`/api/transaction/admin/${customer.userId}`, admin],
      ] as const) {
        const response = await ctx.app.inject({
          method: 'POST',
          url,
          headers: { ...bearer(token), 'idempotency-key': key(), 'content-type': 'application/json' },
          payload: text,
        });
        expect(response.statusCode, `${url}: ${response.body}`).toBe(400);
        expect(json(response)).toEqual({ message: TOO_DEEP_MESSAGE, code: 'bad_request' });
      }
    });
  }
});

describe('addresses the router itself refuses answer in the API error shape', () => {
  it('a path id of 150 characters is a 414, a path that is not valid percent-encoding a 400', async () => {
    const long = await call('PUT', `/api/loans/${'A'.repeat(150)}`, customer.token, {});
    expect(long.statusCode).toBe(414);
    expect(json(long)).toEqual({ message: 'The address is too long.', code: 'bad_request' });
    // A lone surrogate written as the bytes of an invalid UTF-8 sequence.
    const broken = await call('GET', `/api/transaction/admin/${encodeUrlText('\ud800')}`, admin);
    expect(broken.statusCode).toBe(400);
    expect(json(broken)).toEqual({ message: 'Bad request.', code: 'bad_request' });
  });
});

describe('a balance correction racing staff postings on the same customer', () => {
  it('answers every call 2xx or a clean 4xx, and leaves the ledger consistent', async () => {
    const target = await createCustomer(ctx);
    const rounds = 10;
    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const correction = call('PUT', `/api/user/admin/account/${target.userId}`, admin, {
        savings: 1000 + round,
        checking: 2000 + round * 10,
        number: target.accountNumber,
        reason: `Correction round ${round}`,
      });
      const postings = Array.from({ length: 5 }, (_, index) =>
        call('POST', `/api/transaction/admin/${target.userId}`, admin, {
          amount: 25 + index,
          transactionType: index % 2 === 0 ? 'credit' : 'debit',
          date: valueDate(-index),
          description: `Posting ${round}.${index}`,
          reason: 'Concurrent staff posting',
          account: index % 3 === 0 ? 'savings' : 'checking',
        }),
      );
      for (const response of await Promise.all([correction, ...postings])) {
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        if (response.statusCode >= 500) failures.push(`${response.statusCode} ${response.body}`);
        else if (response.statusCode >= 400) {
          const body = json(response);
          if (typeof body.message !== 'string' || typeof body.code !== 'string') failures.push(`unclean ${response.statusCode} ${response.body}`);
        }
      }
    }
    expect(failures, `answers by status: ${JSON.stringify(statuses)}`).toEqual([]);
    // Most calls went through: this is a race between successes, not a pile of refusals.
    const succeeded = Object.entries(statuses)
      .filter(([status]) => Number(status) < 300)
      .reduce((sum, [, count]) => sum + count, 0);
    expect(succeeded).toBeGreaterThan(rounds * 3);
    const verified = await verifyLedger(ctx.database.db);
    expect(verified.ok, JSON.stringify(verified)).toBe(true);
  });
});
