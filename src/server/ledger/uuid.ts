import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/** Random bytes drawn a pool at a time (one call of the generator per 256 ids, as randomUUID does). */
const pool = Buffer.alloc(16 * 256);
let poolOffset = pool.length;
function random16(): Buffer {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

/**
 * UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then a 12-bit counter and random bits, so ids made
 * in one process sort in creation order.
 */
export function uuidv7(now = Date.now()): string {
  const bytes = random16();
  if (now <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    now = lastMs;
  } else {
    lastMs = now;
    // The counter starts at a random point of its lower half (bytes 6 and 7 are overwritten below).
    sequence = bytes.readUInt16BE(6) & 0x7ff;
  }
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether text is a uuid exactly as PostgreSQL writes one back (lowercase). */
export const isCanonicalUuid = (text: string): boolean => CANONICAL_UUID.test(text);

/** Whether text is a uuid in its usual spelling (either case), as staff paste an id. */
export const isUuid = (text: string): boolean => isCanonicalUuid(text.toLowerCase());
