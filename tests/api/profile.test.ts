import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { adminToken, bearer, createCustomer, createTestApp, json, lastCode, signIn, type TestContext, mailbox } from '../support/app';
import { file, jpegWithMetadata, multipart, pdf, png } from '../support/multipart';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

const patch = (token: string, payload: unknown) =>
  ctx.app.inject({ method: 'PATCH', url: '/api/user/profile', headers: bearer(token), payload: payload as object });

describe('PATCH /api/user/profile', () => {
  it('updates phone, address and state, normalizing the phone number', async () => {
    const customer = await createCustomer(ctx);
    const response = await patch(customer.token, { phoneNumber: '2025550188', address: '5 Elm Road', state: 'Texas' });
    expect(response.statusCode).toBe(200);
    const body = json(response);
    expect(body.message).toBe('Profile updated successfully');
    expect(body.data.phone).toBe('+12025550188');
    expect(body.data.location).toEqual({ address: '5 Elm Road', state: 'Texas' });
    const me = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) }));
    expect(me.data.location.state).toBe('Texas');
  });

  it('refuses a phone number libphonenumber-js does not accept, and changes nothing', async () => {
    const customer = await createCustomer(ctx);
    const response = await patch(customer.token, { phoneNumber: '+1 123', address: 'Should not be saved' });
    expect(response.statusCode).toBe(400);
    expect(json(response).message).toMatch(/valid phone number/);
    expect(json(response).fields.phoneNumber).toBeDefined();
    const me = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) }));
    expect(me.data.location.address).toBe('1 Main Street, Springfield');
  });

  it('keeps first and last name read-only, but accepts them sent back unchanged', async () => {
    const customer = await createCustomer(ctx);
    const unchanged = await patch(customer.token, { firstName: 'Dana', lastName: 'Rivera', state: 'Ohio' });
    expect(unchanged.statusCode).toBe(200);
    const renamed = await patch(customer.token, { firstName: 'Mallory' });
    expect(renamed.statusCode).toBe(403);
    expect(json(renamed).message).toMatch(/name can only be changed by the bank/);
  });

  it('rejects bad types and over-long values', async () => {
    const customer = await createCustomer(ctx);
    expect((await patch(customer.token, { address: 42 })).statusCode).toBe(400);
    const long = await patch(customer.token, { state: 'x'.repeat(500) });
    expect(long.statusCode).toBe(400);
    expect(json(long).message).toMatch(/at most/);
    expect((await patch(customer.token, { email: 'not-an-email' })).statusCode).toBe(400);
  });

  it('needs sign-in', async () => {
    const response = await ctx.app.inject({ method: 'PATCH', url: '/api/user/profile', payload: { state: 'Ohio' } });
    expect(response.statusCode).toBe(401);
  });

  it('changes the email only with the password and the code sent to the new address', async () => {
    const customer = await createCustomer(ctx);
    const newEmail = `new.${Date.now()}@example.com`;
    const noPassword = await patch(customer.token, { email: newEmail });
    expect(noPassword.statusCode).toBe(400);
    expect(json(noPassword).message).toMatch(/current password/);
    const wrongPassword = await patch(customer.token, { email: newEmail, password: 'not-the-password' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(json(wrongPassword).message).toMatch(/not correct/);
    const taken = await patch(customer.token, { email: 'alex.morgan@example.com', password: customer.password });
    expect(taken.statusCode).toBe(409);

    const started = await patch(customer.token, { email: newEmail, password: customer.password });
    expect(started.statusCode).toBe(200);
    expect(json(started).emailChangePending).toBe(true);
    expect(json(started).data.email).toBe(customer.email);
    const code = await lastCode(ctx, newEmail);

    // A code for one address does not confirm another one.
    const otherAddress = await patch(customer.token, { email: `other.${Date.now()}@example.com`, emailCode: code });
    expect(otherAddress.statusCode).toBe(400);
    const wrong = await patch(customer.token, { email: newEmail, emailCode: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(json(wrong).message).toMatch(/not correct/);

    const confirmed = await patch(customer.token, { email: newEmail, emailCode: code });
    expect(confirmed.statusCode).toBe(200);
    expect(json(confirmed).data.email).toBe(newEmail);
    expect((await mailbox(ctx)).some((mail) => mail.to === customer.email && /email address was changed/.test(mail.subject))).toBe(true);
    // Single use.
    expect((await patch(customer.token, { email: newEmail, emailCode: code })).statusCode).toBe(200);
    expect(await signIn(ctx, newEmail, customer.password)).toBeTruthy();
  });
});

describe('profile picture', () => {
  const upload = (token: string, parts: Parameters<typeof multipart>[0]) => {
    const body = multipart(parts);
    return ctx.app.inject({ method: 'PATCH', url: '/api/user/profile-picture', headers: { ...bearer(token), ...body.headers }, payload: body.payload });
  };

  it('stores a re-encoded image without its metadata and serves it to its owner and staff only', async () => {
    const customer = await createCustomer(ctx);
    const original = await jpegWithMetadata(3000, 2000);
    expect(original.includes(Buffer.from('SECRET-EXIF-MARKER'))).toBe(true);
    const response = await upload(customer.token, { profilePicture: file('me.jpg', 'image/jpeg', original) });
    expect(response.statusCode).toBe(200);
    const url = json(response).data.profilePicture.url as string;
    expect(url).toContain(`/api/user/profile-picture/${customer.userId}`);

    const mine = await ctx.app.inject({ method: 'GET', url, headers: bearer(customer.token) });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/jpeg');
    expect(mine.rawPayload.includes(Buffer.from('SECRET-EXIF-MARKER'))).toBe(false);
    const metadata = await sharp(mine.rawPayload).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(Math.max(metadata.width ?? 0, metadata.height ?? 0)).toBeLessThanOrEqual(512);

    const admin = await ctx.app.inject({ method: 'GET', url, headers: bearer(await adminToken(ctx)) });
    expect(admin.statusCode).toBe(200);
    const other = await createCustomer(ctx);
    const stranger = await ctx.app.inject({ method: 'GET', url, headers: bearer(other.token) });
    expect(stranger.statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('refuses a text file named .jpg', async () => {
    const customer = await createCustomer(ctx);
    const response = await upload(customer.token, { profilePicture: file('photo.jpg', 'image/jpeg', Buffer.from('just some text, not an image at all')) });
    expect(response.statusCode).toBe(415);
    expect(json(response).message).toBe('The profile picture must be a JPEG, PNG or WebP image.');
    const me = json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(customer.token) }));
    expect(me.data.profilePicture).toBeNull();
  });

  it('refuses a PDF where only images are allowed', async () => {
    const customer = await createCustomer(ctx);
    const response = await upload(customer.token, { profilePicture: file('me.png', 'image/png', pdf()) });
    expect(response.statusCode).toBe(415);
    expect(json(response).message).toMatch(/must be a JPEG, PNG or WebP image/);
  });

  it('refuses a file over 5 MB with a message that says 5 MB', async () => {
    const customer = await createCustomer(ctx);
    const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024 + 10, 1)]);
    const response = await upload(customer.token, { profilePicture: file('big.png', 'image/png', big) });
    expect(response.statusCode).toBe(413);
    expect(json(response).message).toBe('Each file must be at most 5 MB.');
  });

  it('refuses an image with too many pixels', async () => {
    const customer = await createCustomer(ctx);
    // 8000 x 8000 = 64 megapixels of one colour: a tiny file that would decode to 256 MB.
    const huge = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const response = await upload(customer.token, { profilePicture: file('huge.png', 'image/png', huge) });
    expect(response.statusCode).toBe(400);
    expect(json(response).message).toMatch(/megapixels/);
  });

  it('asks for a file when none is sent, and for multipart', async () => {
    const customer = await createCustomer(ctx);
    const none = await upload(customer.token, { other: 'x' });
    expect(none.statusCode).toBe(400);
    expect(json(none).message).toBe('Please choose a picture to upload.');
    const asJson = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/user/profile-picture',
      headers: bearer(customer.token),
      payload: { profilePicture: 'x' },
    });
    expect(asJson.statusCode).toBe(415);
  });

  it('answers a malformed multipart body with a 4xx, never a 500', async () => {
    const customer = await createCustomer(ctx);
    const truncated = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/user/profile-picture',
      headers: { ...bearer(customer.token), 'content-type': 'multipart/form-data; boundary=abc' },
      payload: '--abc\r\nContent-Disposition: form-data; name="profilePicture"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot finished',
    });
    expect(truncated.statusCode).toBeGreaterThanOrEqual(400);
    expect(truncated.statusCode).toBeLessThan(500);
    const noBoundary = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/user/profile-picture',
      headers: { ...bearer(customer.token), 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    expect(noBoundary.statusCode).toBeGreaterThanOrEqual(400);
    expect(noBoundary.statusCode).toBeLessThan(500);
  });

  it('replaces the previous picture', async () => {
    const customer = await createCustomer(ctx);
    const first = json(await upload(customer.token, { profilePicture: file('a.png', 'image/png', await png()) })).data.profilePicture.url;
    const second = json(await upload(customer.token, { profilePicture: file('b.png', 'image/png', await png(40, 40)) })).data.profilePicture.url;
    expect(second).not.toBe(first);
    const served = await ctx.app.inject({ method: 'GET', url: second, headers: bearer(customer.token) });
    expect(served.headers['content-type']).toBe('image/png');
    expect((await sharp(served.rawPayload).metadata()).width).toBe(40);
    const files = await ctx.database.db.selectFrom('stored_files').select('id').where('owner_id', '=', customer.userId).execute();
    expect(files).toHaveLength(1);
  });
});

describe('the API document', () => {
  it('describes the picture upload as multipart/form-data and the picture as a binary image', async () => {
    const document = json(await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' }));
    const form = document.paths['/api/user/profile-picture'].patch.requestBody.content['multipart/form-data'].schema;
    expect(form).toMatchObject({ type: 'object', required: ['profilePicture'], properties: { profilePicture: { type: 'string', format: 'binary' } } });
    const picture = document.paths['/api/user/profile-picture/{id}'].get.responses['200'].content;
    expect(Object.keys(picture)).toEqual(['image/jpeg', 'image/png']);
  });
});
