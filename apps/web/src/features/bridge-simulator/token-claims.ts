import { z } from 'zod';

const claimsSchema = z.looseObject({ auth_time: z.number().int().positive() });

/**
 * The `auth_time` of a platform token (Unix seconds of its log-in), read from its payload
 * without verifying it: the simulator only hands it back to the platform to refresh the token of
 * the same log-in. Undefined when the token does not say.
 */
export function authTimeOf(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json: unknown = JSON.parse(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
    const claims = claimsSchema.safeParse(json);
    return claims.success ? claims.data.auth_time : undefined;
  } catch {
    return undefined;
  }
}
