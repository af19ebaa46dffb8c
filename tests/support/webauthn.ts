import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software authenticator for API tests: what a platform authenticator does with the options a
 * server sends (an ES256 key per credential, "none" attestation, a signature counter), so the
 * server's WebAuthn checks run for real, against real signatures. The browser journeys use
 * Chromium's own virtual authenticator instead.
 */

// ---------------------------------------------------------------- a little CBOR (RFC 8949): what WebAuthn needs

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

// ---------------------------------------------------------------- the authenticator

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

/** The options fields the authenticator reads (PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON). */
interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: Array<{ id: string }>;
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  /** `origin`: the page the ceremony runs on (the bank's PUBLIC_URL origin, unless a test plays a phishing site). */
  constructor(
    private readonly origin: string,
    private readonly options: { userVerified?: boolean } = {},
  ) {}

  private flags(extra = 0): number {
    return FLAG_USER_PRESENT | (this.options.userVerified === false ? 0 : FLAG_USER_VERIFIED) | extra;
  }

  /** navigator.credentials.create(): a new discoverable credential, as RegistrationResponseJSON. */
  register(options: CreationOptions, overrides: { origin?: string; challenge?: string } = {}) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const id = randomBytes(16);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(FLAG_ATTESTED_DATA)]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      credentialIdLength,
      id,
      cbor(cose),
    ]);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: overrides.challenge ?? options.challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    });
    this.credentials.push({ id, privateKey, rpId, userHandle: options.user.id, counter: 0 });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData })),
        transports: ['internal' as const],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get(): an assertion by the credential the options allow (or, with none
   * listed, this authenticator's first for the RP: a discoverable sign-in), as AuthenticationResponseJSON.
   */
  assert(options: RequestOptions, overrides: { origin?: string; challenge?: string; credential?: Credential; counter?: number } = {}) {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = options.allowCredentials?.map((descriptor) => descriptor.id);
    const credential =
      overrides.credential ?? this.credentials.find((candidate) => candidate.rpId === rpId && (!allowed || allowed.includes(b64url(candidate.id))));
    if (!credential) throw new Error('the authenticator holds no credential the options allow');
    credential.counter = overrides.counter ?? credential.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags()]), counter]);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.get',
      challenge: overrides.challenge ?? options.challenge,
      origin: overrides.origin ?? this.origin,
      crossOrigin: false,
    });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}

/** A challenge the server never issued, in the shape it issues them. */
export const foreignChallenge = (): string => b64url(randomBytes(32));
