import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, bearer, createCustomer, createTestApp, json, signIn, type TestContext, mailbox } from '../support/app';
import zlib from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { buildPdf, file, jpegWithMetadata, multipart, PDF_PAGE_TEXT, pdf, pdfObjects, png, streamObject, type FilePart } from '../support/multipart';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestApp();
  admin = await adminToken(ctx);
});
afterAll(async () => ctx?.close());

async function validParts(overrides: Record<string, string | FilePart | undefined> = {}) {
  const parts: Record<string, string | FilePart | undefined> = {
    passportImageFile: file('passport.jpg', 'image/jpeg', await jpegWithMetadata()),
    documentType: 'national_id',
    documentFile: file('id.pdf', 'application/pdf', pdf()),
    proofOfAddressFile: file('bill.png', 'image/png', await png()),
    dateOfBirth: '1990-05-17',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined)) as Record<string, string | FilePart>;
}

const submit = async (token: string, parts: Record<string, string | FilePart>) => {
  const body = multipart(parts);
  return ctx.app.inject({ method: 'POST', url: '/api/user/verification', headers: { ...bearer(token), ...body.headers }, payload: body.payload });
};
const me = async (token: string) => json(await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) })).data;

describe('POST /api/user/verification', () => {
  it('stores the documents, answers the updated user with status pending, and shows the documents to owner and staff only', async () => {
    const customer = await createCustomer(ctx);
    expect((await me(customer.token)).verificationStatus).toBe('awaiting');
    const response = await submit(customer.token, await validParts());
    expect(response.statusCode).toBe(201);
    const body = json(response);
    expect(body.message).toBe('KYC submitted successfully!');
    expect(body.data.verificationStatus).toBe('pending');
    expect(body.data.verification.documentType).toBe('national_id');
    const documentUrl = body.data.verification.documentFront.url as string;
    const proofUrl = body.data.verification.documentBack.url as string;

    const ownDocument = await ctx.app.inject({ method: 'GET', url: documentUrl, headers: bearer(customer.token) });
    expect(ownDocument.statusCode).toBe(200);
    expect(ownDocument.headers['content-type']).toBe('application/pdf');
    expect(ownDocument.headers['content-disposition']).toMatch(/^attachment/);
    const ownProof = await ctx.app.inject({ method: 'GET', url: proofUrl, headers: bearer(customer.token) });
    expect(ownProof.headers['content-type']).toBe('image/png');
    expect((await ctx.app.inject({ method: 'GET', url: documentUrl, headers: bearer(admin) })).statusCode).toBe(200);
    const views = await ctx.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_email'])
      .where('target_user_id', '=', customer.userId)
      .where('action', '=', 'kyc.view_document')
      .execute();
    expect(views).toEqual([{ action: 'kyc.view_document', actor_email: 'admin@example.com' }]);

    // Another customer's document id: as if it did not exist.
    const other = await createCustomer(ctx);
    const stolen = await ctx.app.inject({ method: 'GET', url: documentUrl, headers: bearer(other.token) });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.body).not.toContain('%PDF');
    expect((await ctx.app.inject({ method: 'GET', url: documentUrl })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/user/verification/files/not-a-uuid', headers: bearer(customer.token) })).statusCode).toBe(404);

    // The passport image was re-encoded: its EXIF is gone.
    const queue = json(await ctx.app.inject({ method: 'GET', url: `/api/admin/kyc/users/${customer.userId}`, headers: bearer(admin) })).data;
    const passport = await ctx.app.inject({ method: 'GET', url: queue.submissions[0].passportImage.url, headers: bearer(admin) });
    expect(passport.headers['content-type']).toBe('image/jpeg');
    expect(passport.rawPayload.includes(Buffer.from('SECRET-EXIF-MARKER'))).toBe(false);

    // Under review: a second submission waits for the decision.
    const again = await submit(customer.token, await validParts());
    expect(again.statusCode).toBe(409);
    expect(json(again).message).toMatch(/already under review/);
  });

  it("says 'All fields are required.' when a file or field is missing, and changes nothing", async () => {
    const customer = await createCustomer(ctx);
    for (const missing of ['passportImageFile', 'documentFile', 'proofOfAddressFile', 'documentType', 'dateOfBirth']) {
      const response = await submit(customer.token, await validParts({ [missing]: undefined }));
      expect(response.statusCode).toBe(400);
      expect(json(response).message).toBe('All fields are required.');
      expect(json(response).fields[missing]).toBe('Required');
    }
    expect((await me(customer.token)).verificationStatus).toBe('awaiting');
    const rows = await ctx.database.db.selectFrom('stored_files').select('id').where('owner_id', '=', customer.userId).execute();
    expect(rows).toHaveLength(0);
  });

  it('refuses a text file named .jpg, a PDF as the passport image, an oversized file and a PDF with scripts', async () => {
    const customer = await createCustomer(ctx);
    const text = await submit(customer.token, await validParts({ passportImageFile: file('passport.jpg', 'image/jpeg', Buffer.from('hello, I am text')) }));
    expect(text.statusCode).toBe(415);
    expect(json(text).message).toBe('The passport image must be a JPEG, PNG or WebP image.');

    const pdfPassport = await submit(customer.token, await validParts({ passportImageFile: file('passport.jpg', 'image/jpeg', pdf()) }));
    expect(pdfPassport.statusCode).toBe(415);

    const textDocument = await submit(customer.token, await validParts({ documentFile: file('id.pdf', 'application/pdf', Buffer.from('plain text')) }));
    expect(textDocument.statusCode).toBe(415);
    expect(json(textDocument).message).toBe('The document file must be a JPEG, PNG or WebP image, or a PDF.');

    const big = await submit(
      customer.token,
      await validParts({ proofOfAddressFile: file('bill.pdf', 'application/pdf', Buffer.concat([pdf(), Buffer.alloc(5 * 1024 * 1024)])) }),
    );
    expect(big.statusCode).toBe(413);
    expect(json(big).message).toBe('Each file must be at most 5 MB.');

    const scripted = await submit(
      customer.token,
      await validParts({ documentFile: file('id.pdf', 'application/pdf', pdf('/OpenAction << /S /JavaScript /JS (app.alert(1)) >>')) }),
    );
    expect(scripted.statusCode).toBe(415);
    expect(json(scripted).message).toMatch(/scripts/);

    expect((await me(customer.token)).verificationStatus).toBe('awaiting');
    const rows = await ctx.database.db.selectFrom('stored_files').select('id').where('owner_id', '=', customer.userId).execute();
    expect(rows).toHaveLength(0);
  });

  // Issue 13: the active-content check was a regex over the raw bytes. A reader decodes name escapes
  // and unpacks compressed object streams; the bank now parses the file the same way (pdf-lib).
  describe('PDFs are parsed and rewritten before anyone judges them', () => {
    const refusal = 'The document file: PDFs with scripts, actions, forms or attached files are not accepted. Please upload a plain scan.';

    async function refusedAsDocument(bytes: Buffer) {
      const customer = await createCustomer(ctx);
      const response = await submit(customer.token, await validParts({ documentFile: file('id.pdf', 'application/pdf', bytes) }));
      expect(await ctx.database.db.selectFrom('stored_files').select('id').where('owner_id', '=', customer.userId).execute()).toEqual([]);
      expect((await me(customer.token)).verificationStatus).toBe('awaiting');
      return response;
    }

    it('refuses an OpenAction and a JavaScript action whose names are written with #-escapes', async () => {
      // /Open#41ction is /OpenAction, /J#61vaScript is /JavaScript, /J#53 is /JS: no keyword appears as such in the bytes.
      const escaped = pdf('/Open#41ction 5 0 R', ['<< /Type /Action /S /J#61vaScript /J#53 (app.alert(1)) >>']);
      expect(escaped.toString('latin1')).not.toMatch(/OpenAction|JavaScript|\/JS\b/);
      const response = await refusedAsDocument(escaped);
      expect(response.statusCode).toBe(415);
      expect(json(response)).toEqual({ message: refusal, code: 'unsupported_media', fields: { documentFile: 'PDF with active content' } });
    });

    it('refuses a JavaScript action kept inside a compressed object stream', async () => {
      // Objects 1 (the catalog, with its OpenAction) and 6 (the action) live only inside object
      // stream 5, deflated; a cross-reference stream (7) says where, as PDF 1.5 files do.
      const packed = ['<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R >>', '<< /S /JavaScript /JS (app.alert(2)) >>'];
      const offsets: number[] = [];
      let body = '';
      for (const object of packed) {
        offsets.push(body.length);
        body += `${object}\n`;
      }
      const header = `1 ${offsets[0]} 6 ${offsets[1]} `;
      const objectStream = streamObject(
        `/Type /ObjStm /N 2 /First ${header.length} /Filter /FlateDecode`,
        zlib.deflateSync(Buffer.from(header + body, 'latin1')),
      );
      const [, pages, page, contents] = pdfObjects();
      const objects: Array<string | Buffer> = ['null', pages!, page!, contents!, objectStream, 'null'];
      // Written as buildPdf does, then the cross-reference stream instead of a table.
      const layout = buildPdf(objects).toString('latin1');
      const offsetOf = (number: number) => layout.indexOf(`\n${number} 0 obj\n`) + 1;
      const xrefAt = layout.indexOf('xref\n');
      const entry = (type: number, field2: number, field3: number) =>
        Buffer.from([type, (field2 >>> 24) & 255, (field2 >>> 16) & 255, (field2 >>> 8) & 255, field2 & 255, (field3 >>> 8) & 255, field3 & 255]);
      const entries = Buffer.concat([
        entry(0, 0, 65535),
        entry(2, 5, 0),
        entry(1, offsetOf(2), 0),
        entry(1, offsetOf(3), 0),
        entry(1, offsetOf(4), 0),
        entry(1, offsetOf(5), 0),
        entry(2, 5, 1),
        entry(1, xrefAt, 0),
      ]);
      const xrefStream = Buffer.concat([
        Buffer.from('7 0 obj\n', 'latin1'),
        streamObject('/Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R', entries),
        Buffer.from(`\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'),
      ]);
      const hidden = Buffer.concat([Buffer.from(layout.slice(0, xrefAt), 'latin1'), xrefStream]);
      expect(hidden.toString('latin1')).not.toMatch(/OpenAction|JavaScript/);
      const response = await refusedAsDocument(hidden);
      expect(response.statusCode).toBe(415);
      expect(json(response).message).toBe(refusal);
    });

    it.each([
      ['a name escape the parser would not decode (lower-case hex)', pdf('/Names 5 0 R', ['<< /S /#4aavaScript >>'])],
      ['a Launch action in a link', pdf('', ['<< /Type /Annot /Subtype /Link /Rect [0 0 100 100] /A << /S /Launch /F (calc.exe) >> >>'])],
      [
        'a URI action in an outline',
        pdf('/Outlines 5 0 R', [
          '<< /Type /Outlines /First 6 0 R /Last 6 0 R /Count 1 >>',
          '<< /Title (Click) /Parent 5 0 R /A << /S /URI /URI (https://evil.example) >> >>',
        ]),
      ],
      ['a form', pdf('/AcroForm << /Fields [] /XFA 5 0 R >>', ['(<xdp/>)'])],
      [
        'an embedded file',
        pdf('/Names << /EmbeddedFiles << /Names [(a.exe) 5 0 R] >> >>', [
          '<< /Type /Filespec /F (a.exe) /EF << /F 6 0 R >> >>',
          streamObject('/Type /EmbeddedFile', 'MZ'),
        ]),
      ],
    ])('refuses %s', async (_label, bytes) => {
      const response = await refusedAsDocument(bytes);
      expect(response.statusCode).toBe(415);
      expect(json(response).message).toBe(refusal);
    });

    it.each([
      [
        'an encrypted PDF',
        buildPdf([...pdfObjects(), '<< /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >>'], '/Root 1 0 R /Encrypt 5 0 R'),
        'The document file is a password-protected PDF. Please upload it without a password.',
      ],
      [
        'a PDF without pages',
        buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']),
        'The document file is a PDF without pages.',
      ],
      [
        'a broken PDF',
        Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Kids [ 3 0 R >> endobj\n%%EOF\n', 'latin1'),
        'The document file could not be read as a PDF. Please upload a plain scan.',
      ],
      [
        'a zip bomb in a stream',
        pdf('', [streamObject('/Filter /FlateDecode', zlib.deflateSync(Buffer.alloc(300 * 1024 * 1024)))]),
        'The document file is too large once decompressed. Please upload a plain scan.',
      ],
    ])('refuses %s with a message that says why', async (_label, bytes, message) => {
      const response = await refusedAsDocument(bytes);
      expect(response.statusCode).toBe(415);
      expect(json(response).message).toBe(message);
    });

    it('accepts a clean PDF and stores only the rewritten file: its pages, nothing else it carried', async () => {
      const customer = await createCustomer(ctx);
      // What a clean upload may still carry: an unreferenced object, metadata, a later revision's leftovers.
      const upload = pdf('/Metadata 5 0 R', [streamObject('/Type /Metadata /Subtype /XML', 'PLANTED-XMP-MARKER')]);
      const withOrphan = Buffer.concat([upload, Buffer.from('9 0 obj\n(PLANTED-ORPHAN-MARKER)\nendobj\n', 'latin1')]);
      const response = await submit(customer.token, await validParts({ documentFile: file('id.pdf', 'application/pdf', withOrphan) }));
      expect(response.statusCode, response.body).toBe(201);
      const stored = await ctx.app.inject({ method: 'GET', url: json(response).data.verification.documentFront.url, headers: bearer(customer.token) });
      expect(stored.statusCode).toBe(200);
      expect(stored.headers['content-type']).toBe('application/pdf');
      const bytes = stored.rawPayload;
      expect(bytes.equals(withOrphan)).toBe(false);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(bytes.includes(Buffer.from('PLANTED-ORPHAN-MARKER'))).toBe(false);
      expect(bytes.includes(Buffer.from('PLANTED-XMP-MARKER'))).toBe(false);
      // The page survives: pdf-lib reads one page of the same size, its text still drawn.
      const reread = await PDFDocument.load(bytes);
      expect(reread.getPageCount()).toBe(1);
      expect(reread.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
      expect(bytes.includes(Buffer.from(PDF_PAGE_TEXT))).toBe(true);
      const row = await ctx.database.db
        .selectFrom('stored_files')
        .select(['size_bytes', 'media_type'])
        .where('purpose', '=', 'kyc_document')
        .where('owner_id', '=', customer.userId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ size_bytes: bytes.length, media_type: 'application/pdf' });
    });
  });

  it('checks the document type and the date of birth', async () => {
    const customer = await createCustomer(ctx);
    const type = await submit(customer.token, await validParts({ documentType: 'library_card' }));
    expect(type.statusCode).toBe(400);
    expect(json(type).message).toMatch(/document type/);
    const young = await submit(customer.token, await validParts({ dateOfBirth: `${new Date().getUTCFullYear() - 10}-01-01` }));
    expect(young.statusCode).toBe(400);
    expect(json(young).message).toMatch(/18/);
    const bad = await submit(customer.token, await validParts({ dateOfBirth: '1990-02-31' }));
    expect(bad.statusCode).toBe(400);
  });

  it('is for signed-in customers', async () => {
    const body = multipart(await validParts());
    expect((await ctx.app.inject({ method: 'POST', url: '/api/user/verification', headers: body.headers, payload: body.payload })).statusCode).toBe(401);
    const asAdmin = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/verification',
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    expect(asAdmin.statusCode).toBe(403);
  });
});

describe('staff review', () => {
  it('approves: the customer becomes verified, is emailed, and the decision is audited', async () => {
    const customer = await createCustomer(ctx);
    await submit(customer.token, await validParts());
    const queue = await ctx.app.inject({ method: 'GET', url: '/api/admin/kyc?status=pending', headers: bearer(admin) });
    expect(queue.statusCode).toBe(200);
    const item = json(queue).data.items.find((entry: { userId: string }) => entry.userId === customer.userId);
    expect(item).toMatchObject({ status: 'pending', documentType: 'national_id', customer: { email: customer.email } });

    const approved = await ctx.app.inject({ method: 'POST', url: `/api/admin/kyc/${item.id}/approve`, headers: bearer(admin), payload: {} });
    expect(approved.statusCode).toBe(200);
    expect(json(approved).data.verificationStatus).toBe('verified');
    expect((await me(customer.token)).verificationStatus).toBe('verified');
    expect((await mailbox(ctx)).some((mail) => mail.to === customer.email && /identity is verified/.test(mail.subject))).toBe(true);
    const log = await ctx.database.db.selectFrom('audit_log').selectAll().where('target_id', '=', item.id).execute();
    expect(log).toHaveLength(1);
    expect(log[0]?.action).toBe('kyc.approve');

    const twice = await ctx.app.inject({ method: 'POST', url: `/api/admin/kyc/${item.id}/approve`, headers: bearer(admin), payload: {} });
    expect(twice.statusCode).toBe(409);
    // Verified customers cannot submit again.
    expect((await submit(customer.token, await validParts())).statusCode).toBe(409);
  });

  it('rejects with a reason: status failed, reason emailed, and the customer may submit again', async () => {
    const customer = await createCustomer(ctx);
    await submit(customer.token, await validParts());
    const { submissions } = json(await ctx.app.inject({ method: 'GET', url: `/api/admin/kyc/users/${customer.userId}`, headers: bearer(admin) })).data;
    const id = submissions[0].id;
    const noReason = await ctx.app.inject({ method: 'POST', url: `/api/admin/kyc/${id}/reject`, headers: bearer(admin), payload: {} });
    expect(noReason.statusCode).toBe(400);
    expect(json(noReason).message).toBe('A reason is required');

    const rejected = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/kyc/${id}/reject`,
      headers: bearer(admin),
      payload: { reason: 'The document photo is blurred.' },
    });
    expect(rejected.statusCode).toBe(200);
    expect((await me(customer.token)).verificationStatus).toBe('failed');
    expect((await mailbox(ctx)).some((mail) => mail.to === customer.email && mail.text.includes('The document photo is blurred.'))).toBe(true);
    const log = await ctx.database.db.selectFrom('audit_log').selectAll().where('target_id', '=', id).executeTakeFirstOrThrow();
    expect(log.action).toBe('kyc.reject');
    expect(log.reason).toBe('The document photo is blurred.');

    const again = await submit(customer.token, await validParts());
    expect(again.statusCode).toBe(201);
  });

  it('is staff only, and unknown ids are 404', async () => {
    const customer = await createCustomer(ctx);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/kyc', headers: bearer(customer.token) })).statusCode).toBe(403);
    const demo = await signIn(ctx, 'jamie.lee@example.com', 'Ledgerline-Demo-2026');
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/admin/kyc/${crypto.randomUUID()}/approve`, headers: bearer(demo), payload: {} })).statusCode,
    ).toBe(403);
    expect(
      (await ctx.app.inject({ method: 'POST', url: `/api/admin/kyc/${crypto.randomUUID()}/approve`, headers: bearer(admin), payload: {} })).statusCode,
    ).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/admin/kyc?status=bogus', headers: bearer(admin) })).statusCode).toBe(400);
  });
});

describe('the API document', () => {
  it('describes the identity form as multipart/form-data with its fields, and documents as binary files', async () => {
    const document = json(await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' }));
    const form = document.paths['/api/user/verification'].post.requestBody.content['multipart/form-data'].schema;
    expect(form.required).toEqual(['passportImageFile', 'documentFile', 'proofOfAddressFile', 'documentType', 'dateOfBirth']);
    expect(form.properties.passportImageFile).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.properties.documentType.enum).toEqual(['passport', 'national_id', 'drivers_license']);
    expect(form.properties.dateOfBirth.pattern).toBeDefined();
    const file = document.paths['/api/user/verification/files/{id}'].get.responses['200'].content;
    expect(Object.keys(file)).toEqual(['image/jpeg', 'image/png', 'application/pdf']);
    expect(file['application/pdf'].schema).toEqual({ type: 'string', format: 'binary' });
  });
});
