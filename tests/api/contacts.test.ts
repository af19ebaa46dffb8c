import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, createCustomer, createTestApp, json, type TestContext, mailbox } from '../support/app';
import { UNSUPPORTED_MEDIA_MESSAGE } from '../../src/server/plugins/errors';

let ctx: TestContext;
let limited: TestContext;
let admin: string;
beforeAll(async () => {
  [ctx, limited] = await Promise.all([createTestApp(), createTestApp({ rateLimits: true, seedDemo: false })]);
  admin = await adminToken(ctx);
});
afterAll(async () => {
  await ctx?.close();
  await limited?.close();
});

let ipCounter = 1;
const valid = (overrides: Record<string, unknown> = {}) => ({
  name: 'Robin Park',
  email: 'robin.park@example.com',
  subject: 'Opening a business account',
  message: 'Which documents do I need?',
  ...overrides,
});
const send = (payload: unknown, target: TestContext = ctx, remoteAddress = `10.0.0.${ipCounter++}`) =>
  target.app.inject({ method: 'POST', url: '/api/contacts', payload: payload as object, remoteAddress });
const list = (token: string | null, query = '') => ctx.app.inject({ method: 'GET', url: `/api/contacts${query}`, headers: token ? bearer(token) : {} });
const remove = (token: string | null, id: string) => ctx.app.inject({ method: 'DELETE', url: `/api/contacts/${id}`, headers: token ? bearer(token) : {} });
const countRows = async () =>
  Number(
    (
      await ctx.database.db
        .selectFrom('contact_messages')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/contacts', () => {
  it('stores the message, answers the spec message and emails the bank', async () => {
    const subject = `Question ${Date.now()}`;
    const response = await send(valid({ subject, email: 'Robin.Park@Example.com' }));
    expect(response.statusCode).toBe(201);
    expect(json(response).message).toBe('Your message has been sent successfully!');
    const id = json(response).data._id as string;
    const row = await ctx.database.db.selectFrom('contact_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Robin Park', subject, message: 'Which documents do I need?', read_at: null });
    const mail = (await mailbox(ctx)).find((entry) => entry.subject.includes(subject));
    expect(mail?.to).toBe(ctx.config.adminEmail ?? ctx.config.mailFrom.match(/<([^>]+)>/)?.[1]);
    expect(mail?.text).toContain('Which documents do I need?');
  });

  it('keeps the line breaks of a message of several lines (other control characters are refused)', async () => {
    const message = 'Hello,\r\nwhich documents do I need?\n\nThanks';
    const response = await send(valid({ message }));
    expect(response.statusCode, response.body).toBe(201);
    const row = await ctx.database.db.selectFrom('contact_messages').select('message').where('id', '=', json(response).data._id).executeTakeFirstOrThrow();
    expect(row.message).toBe(message);
    const refused = await send(valid({ message: 'Hello\u0007' }));
    expect(refused.statusCode).toBe(400);
    expect(json(refused).message).toBe('Message must not contain control characters');
  });

  it.each([
    [{ name: '' }, 'Name is required', 'name'],
    [{ name: '   ' }, 'Name is required', 'name'],
    [{ email: '' }, 'Email is required', 'email'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address', 'email'],
    [{ subject: undefined }, 'Subject is required', 'subject'],
    [{ message: '' }, 'Message is required', 'message'],
    [{ message: 'x'.repeat(5001) }, 'Message must be at most 5000 characters', 'message'],
    [{ name: 'n'.repeat(81) }, 'Name must be at most 80 characters', 'name'],
    [{ name: 42 }, 'Name is required', 'name'],
  ])('refuses %j with 400 and stores nothing', async (overrides, message, field) => {
    const before = await countRows();
    const response = await send(valid(overrides));
    expect(response.statusCode).toBe(400);
    expect(json(response).message).toBe(message);
    expect(json(response).fields[field]).toBe(message);
    expect(await countRows()).toBe(before);
  });

  it('refuses a body that is not JSON, and an empty one', async () => {
    const broken = await ctx.app.inject({ method: 'POST', url: '/api/contacts', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(broken.statusCode).toBe(400);
    expect(json(broken).message).toBe('The request body is not valid JSON.');
    const empty = await send({});
    expect(empty.statusCode).toBe(400);
    expect(json(empty).message).toBe('Name is required');
    // Plain text is not read as a string in place of the object: refused as the wrong type of body.
    const before = await countRows();
    const text = await ctx.app.inject({ method: 'POST', url: '/api/contacts', headers: { 'content-type': 'text/plain' }, payload: 'name=Sam' });
    expect(text.statusCode).toBe(415);
    expect(json(text).message).toBe(UNSUPPORTED_MEDIA_MESSAGE);
    expect(await countRows()).toBe(before);
  });

  it('drops a message whose honeypot is filled, answering as if it worked', async () => {
    const before = await countRows();
    const mailsBefore = (await mailbox(ctx)).length;
    const response = await send(valid({ website: 'http://spam.example' }));
    expect(response.statusCode).toBe(201);
    expect(json(response).message).toBe('Your message has been sent successfully!');
    expect(await countRows()).toBe(before);
    expect((await mailbox(ctx)).length).toBe(mailsBefore);
  });

  it('limits one address to 5 messages a minute; another address is not affected', async () => {
    for (let index = 0; index < 5; index += 1) {
      expect((await send(valid(), limited, '192.0.2.10')).statusCode).toBe(201);
    }
    const sixth = await send(valid(), limited, '192.0.2.10');
    expect(sixth.statusCode).toBe(429);
    expect(json(sixth).message).toBe('Too many requests. Please wait a moment and try again.');
    expect((await send(valid(), limited, '192.0.2.11')).statusCode).toBe(201);
    const stored = await limited.database.db
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(6);
  });
});

describe('contacts in the back office', () => {
  it('lists newest first with paging and the unread count; needs an admin', async () => {
    const first = json(await send(valid({ subject: 'Paging one' }))).data._id as string;
    const second = json(await send(valid({ subject: 'Paging two' }))).data._id as string;
    const page = await list(admin, '?page=1&pageSize=2');
    expect(page.statusCode).toBe(200);
    const data = json(page).data;
    expect(data.items.map((item: { _id: string }) => item._id)).toEqual([second, first]);
    expect(data).toMatchObject({ page: 1, pageSize: 2 });
    expect(data.total).toBe(await countRows());
    expect(data.unread).toBe(data.total);
    expect(data.items[0]).toMatchObject({ subject: 'Paging two', email: 'robin.park@example.com', readAt: null });

    expect((await list(admin, '?pageSize=1000')).statusCode).toBe(400);
    expect((await list(admin, '?page=0')).statusCode).toBe(400);
    expect((await list(null)).statusCode).toBe(401);
    const customer = await createCustomer(ctx);
    expect((await list(customer.token)).statusCode).toBe(403);
  });

  it('marks a message read (audited): the unread count drops', async () => {
    const id = json(await send(valid({ subject: 'Read me' }))).data._id as string;
    const before = json(await list(admin)).data.unread as number;
    const read = await ctx.app.inject({ method: 'POST', url: `/api/contacts/${id}/read`, headers: bearer(admin) });
    expect(read.statusCode).toBe(200);
    expect(json(read).data.readAt).not.toBeNull();
    expect(json(await list(admin)).data.unread).toBe(before - 1);
    const log = await ctx.database.db.selectFrom('audit_log').select(['action', 'actor_email']).where('target_id', '=', id).execute();
    expect(log).toEqual([{ action: 'contact.read', actor_email: 'admin@example.com' }]);
  });

  it("deletes a message, audited, answering 'Contact deleted'; others may not; unknown ids are 404", async () => {
    const id = json(await send(valid({ subject: 'Delete me' }))).data._id as string;
    const customer = await createCustomer(ctx);
    expect((await remove(null, id)).statusCode).toBe(401);
    expect((await remove(customer.token, id)).statusCode).toBe(403);

    const deleted = await remove(admin, id);
    expect(deleted.statusCode).toBe(200);
    expect(json(deleted).message).toBe('Contact deleted');
    expect(await ctx.database.db.selectFrom('contact_messages').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const log = await ctx.database.db.selectFrom('audit_log').select(['action', 'before']).where('target_id', '=', id).execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: 'contact.delete', before: { subject: 'Delete me', email: 'robin.park@example.com' } });

    const again = await remove(admin, id);
    expect(again.statusCode).toBe(404);
    expect(json(again).message).toBe('Contact not found');
    expect((await remove(admin, 'not-a-uuid')).statusCode).toBe(404);
  });
});
