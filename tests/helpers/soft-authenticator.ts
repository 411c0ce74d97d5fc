import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey for tests: makes the answers a browser and its authenticator give to WebAuthn options (ES256,
 * "none" attestation, user present and verified), so the server's checks run on real signatures. The browser tests
 * use Chromium's own virtual authenticator instead.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32).toString('base64url');
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;

  constructor(private readonly origin: string, private readonly rpId = new URL(origin).hostname) {}

  /** The answer to registration options (`navigator.credentials.create`), as the page posts it. */
  register(options: { challenge: string }): string {
    const clientDataJSON = this.clientData('webauthn.create', options.challenge);
    const credentialId = Buffer.from(this.credentialId, 'base64url');
    const authData = Buffer.concat([
      this.authDataHead(0x45), // user present, user verified, attested credential data
      Buffer.alloc(16), // AAGUID
      Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]), credentialId, coseKey(this.keys.publicKey),
    ]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', new Uint8Array(authData)]]) as never);
    return JSON.stringify({
      id: this.credentialId, rawId: this.credentialId, type: 'public-key', clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject), transports: ['internal'] },
    });
  }

  /** The answer to sign-in options (`navigator.credentials.get`); the counter moves on unless `counter` says otherwise. */
  answer(options: { challenge: string }, counter = ++this.counter): string {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authData = this.authDataHead(0x05, counter);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), this.keys.privateKey);
    return JSON.stringify({
      id: this.credentialId, rawId: this.credentialId, type: 'public-key', clientExtensionResults: {},
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature) },
    });
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  private authDataHead(flags: number, counter = 0): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([createHash('sha256').update(this.rpId).digest(), Buffer.from([flags]), count]);
  }
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The COSE form of a P-256 public key (kty EC2, alg ES256, crv P-256, x, y). */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const map = new Map<number, number | Uint8Array>([
    [1, 2], [3, -7], [-1, 1], [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))], [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
  ]);
  return Buffer.from(isoCBOR.encode(map as never));
}
