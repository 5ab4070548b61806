import { z } from 'zod';
import { publicIdSchema } from './share.ts';
import { API_BASE_PATH } from './site-paths.ts';

/** Demo mode only: the bridge simulator's users and its log-in. */
export const DEMO_USERS_PATH = `${API_BASE_PATH}/demo/users`;
export const DEMO_SESSIONS_PATH = `${API_BASE_PATH}/demo/sessions`;

/**
 * The app's users are logged in by the platform: the token is the platform's access token, a JWT
 * (docs/decisions/0022-platform-tokens.md). The app holds it, refreshes it and hands it to in-app
 * pages through the bridge; pages send it in the `Authorization: Bearer <token>` header only,
 * never in a URL. The site issues none and keeps no session: the app logs out with the platform.
 */

/** A compact JWS: three base64url parts joined by dots. */
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Longer than any ES256, EdDSA or RS256 (4096-bit) token with the platform's claims. */
export const SESSION_TOKEN_MAX_LENGTH = 4096;
export const sessionTokenSchema = z
  .string()
  .max(SESSION_TOKEN_MAX_LENGTH)
  .regex(SESSION_TOKEN_PATTERN);

export const sessionSchema = z.object({
  token: sessionTokenSchema,
  userId: publicIdSchema,
  expiresAt: z.iso.datetime({ offset: true }),
});
export type Session = z.infer<typeof sessionSchema>;

/** A user the demo log-in offers (demo mode only). */
export const demoUserSchema = z.object({
  id: publicIdSchema,
  nickname: z.string(),
});
export const demoUsersResponseSchema = z.object({ users: z.array(demoUserSchema) });
export type DemoUser = z.infer<typeof demoUserSchema>;

export const demoLoginRequestSchema = z
  .object({
    userId: publicIdSchema,
    /**
     * The app refreshing its token: the Unix seconds of the log-in it keeps (the token's
     * `auth_time`). Without it, a fresh log-in (`auth_time` now).
     */
    authTime: z.number().int().positive().optional(),
  })
  .strict();
export type DemoLoginRequest = z.infer<typeof demoLoginRequestSchema>;

/** The error codes every authenticated endpoint can answer with (401). */
export const AUTH_ERROR_CODES = ['unauthorized'] as const;
