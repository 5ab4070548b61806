import {
  Environment,
  SignedDataVerifier,
  VerificationException,
  VerificationStatus,
  type JWSRenewalInfoDecodedPayload,
  type JWSTransactionDecodedPayload,
  type ResponseBodyV2DecodedPayload,
} from '@apple/app-store-server-library';
import type { AppStoreConfig } from '../config/env.ts';

/** Why signed App Store data was refused; `retry` when the failure may pass later (OCSP). */
export class AppStoreVerificationError extends Error {
  override name = 'AppStoreVerificationError';
  constructor(
    readonly code: 'invalid_transaction' | 'wrong_bundle' | 'wrong_environment',
    readonly retry = false,
  ) {
    super(code);
  }
}

function toVerificationError(error: unknown): AppStoreVerificationError {
  if (error instanceof VerificationException) {
    switch (error.status) {
      case VerificationStatus.INVALID_APP_IDENTIFIER:
        return new AppStoreVerificationError('wrong_bundle');
      case VerificationStatus.INVALID_ENVIRONMENT:
        return new AppStoreVerificationError('wrong_environment');
      case VerificationStatus.RETRYABLE_VERIFICATION_FAILURE:
        return new AppStoreVerificationError('invalid_transaction', true);
      default:
        return new AppStoreVerificationError('invalid_transaction');
    }
  }
  return new AppStoreVerificationError('invalid_transaction');
}

export interface AppStoreVerifier {
  transaction(signed: string): Promise<JWSTransactionDecodedPayload>;
  renewalInfo(signed: string): Promise<JWSRenewalInfoDecodedPayload>;
  notification(signedPayload: string): Promise<ResponseBodyV2DecodedPayload>;
}

/**
 * Apple's SignedDataVerifier, set up from the configuration: the x5c chain must end at one of
 * `rootCertificates` and carry Apple's marker OIDs, the ES256 signature must hold, and the bundle
 * id and environment must be ours. Only Production and Sandbox exist here: for Xcode and
 * LocalTesting the library skips the signature, so they are refused outright.
 */
export function createAppStoreVerifier(
  config: AppStoreConfig,
  rootCertificates: Buffer[],
  { onlineChecks = false }: { onlineChecks?: boolean } = {},
): AppStoreVerifier {
  // Only these two: the config schema allows nothing else, and Xcode/LocalTesting never reach here.
  const environment =
    config.environment === 'Production' ? Environment.PRODUCTION : Environment.SANDBOX;
  const verifier = new SignedDataVerifier(
    rootCertificates,
    onlineChecks,
    environment,
    config.bundleId,
    config.appAppleId,
  );
  const guard = async <T>(verify: () => Promise<T>): Promise<T> => {
    try {
      return await verify();
    } catch (error) {
      throw toVerificationError(error);
    }
  };
  return {
    transaction: (signed) => guard(() => verifier.verifyAndDecodeTransaction(signed)),
    renewalInfo: (signed) => guard(() => verifier.verifyAndDecodeRenewalInfo(signed)),
    notification: (signed) => guard(() => verifier.verifyAndDecodeNotification(signed)),
  };
}
