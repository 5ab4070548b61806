import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The StoreKit TEST certificate chain (test-chain/README.md): demo mode and tests only. It is
 * read at run time from the source tree and never bundled into or copied to dist/, so a build
 * holds no test key: this module runs from src/demo/ (tests, tsx) or from a demo chunk in
 * apps/server/dist/ (the built demo server), and finds src/demo/test-chain/ from either.
 */
const RUNS_FROM_SOURCE = import.meta.url.endsWith('.ts');

export const TEST_CHAIN_DIR = fileURLToPath(
  new URL(RUNS_FROM_SOURCE ? './test-chain/' : '../src/demo/test-chain/', import.meta.url),
);

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
