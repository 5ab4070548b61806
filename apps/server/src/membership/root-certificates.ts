import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../config/env.ts';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Every root certificate in the files of a directory (DER `.cer`/`.der`, or PEM), as DER. Only
 * self-signed certificates are roots: others (and PEM files holding only keys) are passed over.
 */
function readCertificates(dir: string): Buffer[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => /\.(cer|der|crt|pem)$/i.test(name));
  } catch {
    throw new ConfigError(`APPLE_ROOT_CERTS_DIR: cannot read the directory ${dir}`);
  }
  const certificates: Buffer[] = [];
  for (const name of names.sort()) {
    const bytes = readFileSync(join(dir, name));
    const text = bytes.toString('latin1');
    const blocks = text.includes('-----BEGIN') ? (text.match(PEM_CERTIFICATE) ?? []) : [bytes];
    for (const block of blocks) {
      let certificate: X509Certificate;
      try {
        certificate = new X509Certificate(block);
      } catch {
        throw new ConfigError(`APPLE_ROOT_CERTS_DIR: ${name} is not a certificate`);
      }
      const selfSigned =
        certificate.issuer === certificate.subject && certificate.verify(certificate.publicKey);
      if (selfSigned) certificates.push(certificate.raw);
    }
  }
  if (certificates.length === 0) {
    throw new ConfigError(
      `APPLE_ROOT_CERTS_DIR: no root certificates in ${dir} (put Apple's root certificates there, e.g. AppleRootCA-G3.cer)`,
    );
  }
  return certificates;
}

/**
 * The roots App Store signatures must chain to in production: Apple's own, read from
 * APPLE_ROOT_CERTS_DIR (the server has no internet to fetch them, and refuses to start without
 * them). Demo mode trusts the StoreKit test root instead (demo/demo-mode.ts).
 */
export function appStoreRootCertificates(config: Config): Buffer[] {
  const dir = config.appStore.rootCertsDir;
  if (!dir) throw new ConfigError('APPLE_ROOT_CERTS_DIR: required in production');
  return readCertificates(dir);
}
