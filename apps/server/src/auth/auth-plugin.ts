import type { FastifyInstance } from 'fastify';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { Db } from '../db/database.ts';
import { platformTokenVerifier } from './platform-tokens.ts';
import {
  userAuthenticator,
  type Authenticator,
  type UserAuthenticatorOptions,
} from './user-authenticator.ts';

export interface AuthPluginOptions {
  db: Db;
  platform: PlatformConfig;
  /** What other features do when a token shows a new log-in (user-authenticator.ts). */
  onLogin: UserAuthenticatorOptions['onLogin'];
}

/**
 * Who the user is: the platform's tokens against its JWKS (`requireUser(auth)` is the one auth
 * hook). The site issues no token and keeps no session: the app logs in and out with the
 * platform (docs/decisions/0022-platform-tokens.md).
 */
export function registerAuth(
  app: FastifyInstance,
  { db, platform, onLogin }: AuthPluginOptions,
): Authenticator {
  const verifyToken = platformTokenVerifier({
    issuer: platform.issuer,
    jwksUrl: platform.jwksUrl,
  });
  return userAuthenticator({
    db,
    verifyToken,
    onLogin,
    onKeysFailure: (detail) => {
      app.log.warn({ detail }, "the platform's keys could not be had: tokens are refused");
    },
  });
}
