import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../src/server/ledger/verify';
import { adminToken, bearer, createCustomer, json, lastCode, type TestContext, createTestApp, valueDate, staffCall } from '../support/app';

// Random sequences of customer transfers, staff entries and reversals, run through the real API
// against PostgreSQL, checked against a simple model: balances match, nothing goes negative,
// and the ledger verifies (chain, balanced entries, stored = sum of postings, total = 0).

let ctx: TestContext;
let admin: string;
let keySeq = 0;
const key = () => `prop-${Date.now()}-${keySeq++}`;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

type Account = 'savings' | 'checking';
const accountArb = fc.constantFrom<Account>('savings', 'checking');
const centsArb = fc.integer({ min: 1, max: 60_000 });
const CUSTOMERS = 3;
const customerArb = fc.integer({ min: 0, max: CUSTOMERS - 1 });

type Command =
  | { type: 'staff'; who: number; account: Account; credit: boolean; cents: number }
  | { type: 'internal'; who: number; from: Account; cents: number }
  | { type: 'transfer'; who: number; to: number; from: Account; cents: number }
  | { type: 'reverse'; pick: number };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ type: fc.constant('staff' as const), who: customerArb, account: accountArb, credit: fc.boolean(), cents: centsArb }),
  fc.record({ type: fc.constant('internal' as const), who: customerArb, from: accountArb, cents: centsArb }),
  fc.record({ type: fc.constant('transfer' as const), who: customerArb, to: customerArb, from: accountArb, cents: centsArb }),
  fc.record({ type: fc.constant('reverse' as const), pick: fc.nat() }),
);

const dollars = (cents: number) => (cents / 100).toFixed(2);
const other = (account: Account): Account => (account === 'savings' ? 'checking' : 'savings');

describe('ledger invariants under random operations', () => {
  it('keeps every invariant', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 5, maxLength: 25 }), async (commands) => {
        const customers = await Promise.all(Array.from({ length: CUSTOMERS }, () => createCustomer(ctx)));
        const model = customers.map(() => ({ savings: 0, checking: 0 }));
        // Entries that staff may reverse: what each did to which customer account.
        const posted: Array<{ entryId: string; effects: Array<{ who: number; account: Account; cents: number }>; reversed: boolean }> = [];

        for (const command of commands) {
          if (command.type === 'staff') {
            const response = await staffCall(ctx, {
              method: 'POST',
              url: `/api/transaction/admin/${customers[command.who]!.userId}`,
              headers: { ...bearer(admin), 'idempotency-key': key() },
              payload: {
                amount: dollars(command.cents),
                transactionType: command.credit ? 'credit' : 'debit',
                date: valueDate(),
                description: 'Prop',
                reason: 'property test',
                account: command.account,
              },
            });
            const balance = model[command.who]![command.account];
            const affordable = command.credit || balance >= command.cents;
            expect(response.statusCode).toBe(affordable ? 201 : 400);
            if (affordable) {
              const signed = command.credit ? command.cents : -command.cents;
              model[command.who]![command.account] += signed;
              posted.push({ entryId: json(response).data.entryId, effects: [{ who: command.who, account: command.account, cents: signed }], reversed: false });
            }
          } else if (command.type === 'internal') {
            const response = await ctx.app.inject({
              method: 'POST',
              url: '/api/transaction/internal-transfer',
              headers: { ...bearer(customers[command.who]!.token), 'idempotency-key': key() },
              payload: { from: command.from, to: other(command.from), amount: dollars(command.cents) },
            });
            const affordable = model[command.who]![command.from] >= command.cents;
            expect(response.statusCode).toBe(affordable ? 201 : 400);
            if (affordable) {
              model[command.who]![command.from] -= command.cents;
              model[command.who]![other(command.from)] += command.cents;
              posted.push({
                entryId: json(response).data.entryId,
                effects: [
                  { who: command.who, account: command.from, cents: -command.cents },
                  { who: command.who, account: other(command.from), cents: command.cents },
                ],
                reversed: false,
              });
            }
          } else if (command.type === 'transfer') {
            const sender = customers[command.who]!;
            const payee = customers[command.to]!;
            const payload = { amount: dollars(command.cents), accountType: command.from, accountNumber: payee.accountNumber, to: 'Peer' };
            const first = await ctx.app.inject({
              method: 'POST',
              url: '/api/transaction/transfer',
              headers: { ...bearer(sender.token), 'idempotency-key': key() },
              payload,
            });
            if (command.who === command.to) {
              expect(first.statusCode).toBe(400);
              continue;
            }
            const affordable = model[command.who]![command.from] >= command.cents;
            expect(first.statusCode).toBe(affordable ? 200 : 400);
            if (!affordable) continue;
            const done = await ctx.app.inject({
              method: 'POST',
              url: '/api/transaction/transfer',
              headers: { ...bearer(sender.token), 'idempotency-key': key() },
              payload: { ...payload, paymentPin: await lastCode(ctx, sender.email) },
            });
            expect(done.statusCode).toBe(201);
            model[command.who]![command.from] -= command.cents;
            model[command.to]!.checking += command.cents;
            posted.push({
              entryId: json(done).data.entryId,
              effects: [
                { who: command.who, account: command.from, cents: -command.cents },
                { who: command.to, account: 'checking', cents: command.cents },
              ],
              reversed: false,
            });
          } else {
            if (posted.length === 0) continue;
            const target = posted[command.pick % posted.length]!;
            const response = await staffCall(ctx, {
              method: 'DELETE',
              url: `/api/transaction/admin/${target.entryId}`,
              headers: { ...bearer(admin), 'idempotency-key': key() },
              payload: { reason: 'property test reversal' },
            });
            if (target.reversed) {
              expect(response.statusCode).toBe(409);
              continue;
            }
            const after = model.map((balances) => ({ ...balances }));
            for (const effect of target.effects) after[effect.who]![effect.account] -= effect.cents;
            const affordable = after.every((balances) => balances.savings >= 0 && balances.checking >= 0);
            expect(response.statusCode).toBe(affordable ? 200 : 400);
            if (affordable) {
              target.reversed = true;
              model.splice(0, model.length, ...after);
            }
          }
        }

        for (const [index, customer] of customers.entries()) {
          const account = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) })).data.account;
          expect(Math.round(account.savings * 100)).toBe(model[index]!.savings);
          expect(Math.round(account.checking * 100)).toBe(model[index]!.checking);
        }
        const verified = await verifyLedger(ctx.database.db);
        expect(verified).toMatchObject({ ok: true });
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});
