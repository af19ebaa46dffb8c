import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import { type Kysely, sql } from 'kysely';

// Sign-up stored the phone as typed ("202 555 0101", country code chosen apart), and the profile
// then refused every save of such a number. Sign-up now stores E.164; this rewrites the rows
// written before: a phone that parses (without its "+", in the row's own dial code) becomes
// E.164, any other is left as it is. Frozen once landed: the rule is written out here, never
// imported from the app.

const BATCH_SIZE = 1000;
const PHONE_LENGTH_MAX = 25;

function toE164(phone: string, dialCode: string | null): string | null {
  const text = phone.trim();
  if (!text || text.length > PHONE_LENGTH_MAX) return null;
  const digitsDialCode = dialCode?.trim().replace(/^\+/, '') ?? '';
  const candidate = text.startsWith('+') ? text : /^[0-9]{1,4}$/.test(digitsDialCode) ? `+${digitsDialCode}${text.replace(/^0+/, '')}` : null;
  if (!candidate || !isValidPhoneNumber(candidate)) return null;
  return parsePhoneNumberFromString(candidate)?.number ?? null;
}

interface PhoneRow {
  id: string;
  phone: string;
  country_code: string | null;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<PhoneRow>`
      select id, phone, country_code from users
      where id > ${after}::uuid and phone <> ''
      order by id
      limit ${BATCH_SIZE}`.execute(db);
    const last = rows.at(-1);
    if (!last) return;
    after = last.id;
    const changes = rows.flatMap((row) => {
      const e164 = toE164(row.phone, row.country_code);
      return e164 && e164 !== row.phone ? [sql`(${row.id}::uuid, ${e164})`] : [];
    });
    if (changes.length > 0) {
      await sql`
        update users set phone = changed.phone
        from (values ${sql.join(changes)}) as changed (id, phone)
        where users.id = changed.id`.execute(db);
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('Migrations are not reversed: restore from a backup instead.');
}
