import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The StoreKit TEST certificate chain (test-chain/README.md): demo mode and tests only. The
 * folder sits next to this module in src/ and is copied next to the bundle in dist/ (build.mjs),
 * so the same relative URL finds it in both.
 */
export const TEST_CHAIN_DIR = fileURLToPath(new URL('./test-chain/', import.meta.url));

export interface CertificateChain {
  /** PEM certificates, leaf first: what goes into a JWS `x5c` header. */
  leaf: string;
  intermediate: string;
  root: string;
  /** The leaf's private key (PKCS #8 PEM). */
  leafKey: string;
}

/** Reads a chain from a folder of the shape scripts/make-storekit-test-chain.sh writes. */
export function loadCertificateChain(dir: string = TEST_CHAIN_DIR): CertificateChain {
  const read = (name: string) => readFileSync(`${dir}/${name}`, 'utf8');
  return {
    leaf: read('leaf.pem'),
    intermediate: read('intermediate.pem'),
    root: read('root.pem'),
    leafKey: read('leaf-key.pem'),
  };
}
