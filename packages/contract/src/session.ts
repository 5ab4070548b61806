import { z } from 'zod';
import { publicIdSchema } from './share.ts';
import { API_BASE_PATH } from './site-paths.ts';

/** DELETE: the app logs out (ends the session the request carries). */
export const CURRENT_SESSION_PATH = `${API_BASE_PATH}/sessions/current`;
/** Demo mode only: the bridge simulator's users and its log-in. */
export const DEMO_USERS_PATH = `${API_BASE_PATH}/demo/users`;
export const DEMO_SESSIONS_PATH = `${API_BASE_PATH}/demo/sessions`;

/**
 * Sessions of the app's users. The app holds the token and hands it to in-app pages through the
 * bridge; pages send it in the `Authorization: Bearer <token>` header only, never in a URL.
 */

/** 32 random bytes, base64url: 43 characters. */
export const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const sessionTokenSchema = z.string().regex(SESSION_TOKEN_PATTERN);

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

export const demoLoginRequestSchema = z.object({ userId: publicIdSchema }).strict();
export type DemoLoginRequest = z.infer<typeof demoLoginRequestSchema>;

/** The error codes every authenticated endpoint can answer with (401). */
export const AUTH_ERROR_CODES = ['unauthorized'] as const;
