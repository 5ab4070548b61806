import { generateKeyPairSync } from 'node:crypto';
import { DEMO_BUNDLE_ID } from '../config/env.ts';
import { createStoreKitSigner, type StoreKitSigner } from './storekit-signer.ts';
import { loadCertificateChain, TEST_CHAIN_DIR } from './test-chain.ts';

/** Signers for the tests: the App Store as the demo server trusts it, and forgers of each kind. */
export const DAY_MS = 24 * 60 * 60 * 1000;

const SANDBOX = {
  bundleId: DEMO_BUNDLE_ID,
  environment: 'Sandbox' as const,
  appAppleId: undefined,
};

/** Signs as the App Store would for the demo server (the trusted test chain). */
export function testAppStore(): StoreKitSigner {
  return createStoreKitSigner(loadCertificateChain(), SANDBOX);
}

/** The right certificates, but another key signs: the signature does not match the leaf. */
export function signerWithAnotherKey(): StoreKitSigner {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const leafKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return createStoreKitSigner({ ...loadCertificateChain(), leafKey }, SANDBOX);
}

/** A whole chain of its own, ending at a root the server does not trust. */
export function signerWithUntrustedChain(): StoreKitSigner {
  return createStoreKitSigner(loadCertificateChain(`${TEST_CHAIN_DIR}/untrusted`), SANDBOX);
}

/** A JWS whose payload was changed after signing (the signature stays the old one). */
export function tamper(jws: string, change: (payload: Record<string, unknown>) => void): string {
  const [header, body, signature] = jws.split('.');
  const payload = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  change(payload);
  return `${header ?? ''}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature ?? ''}`;
}
