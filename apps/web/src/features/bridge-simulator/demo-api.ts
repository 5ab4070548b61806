import type { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  DEMO_STOREKIT_TRANSACTIONS_PATH,
  demoStoreKitResponseSchema,
} from '@guquan/contract/membership';
import {
  DEMO_SESSIONS_PATH,
  DEMO_USERS_PATH,
  demoUsersResponseSchema,
  sessionSchema,
  type DemoUser,
  type Session,
} from '@guquan/contract/session';

/**
 * The demo server's stand-ins for what the real app gets elsewhere: its users' log-in (a token
 * the stand-in platform signs) and the App Store's signed transactions. These endpoints exist in
 * demo mode only.
 */
export const DEMO_PATHS = {
  users: DEMO_USERS_PATH,
  sessions: DEMO_SESSIONS_PATH,
  storeKitTransactions: DEMO_STOREKIT_TRANSACTIONS_PATH,
} as const;

const signedPurchaseSchema = demoStoreKitResponseSchema;
export type SignedPurchase = z.infer<typeof signedPurchaseSchema>;

export class DemoApiError extends Error {
  override name = 'DemoApiError';
}

export interface DemoApi {
  users(): Promise<DemoUser[]>;
  /**
   * A token of the platform for the user: a fresh log-in, or with `authTime` (Unix seconds) the
   * app refreshing the token of that log-in. Logging out needs no call: the app logs out with the
   * platform, and the site keeps no session.
   */
  logIn(userId: string, authTime?: number): Promise<Session>;
  signPurchase(
    token: string,
    purchase: { productId: string; appAccountToken: string },
  ): Promise<SignedPurchase>;
}

type Fetch = typeof fetch;

export function createDemoApi(fetchFn: Fetch): DemoApi {
  const request = async <T>(url: string, init: RequestInit, schema: z.ZodType<T>): Promise<T> => {
    let response: Response;
    try {
      response = await fetchFn(url, { ...init, cache: 'no-store' });
    } catch {
      throw new DemoApiError(`The demo server could not be reached (${url}).`);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const error = apiErrorSchema.safeParse(body);
      const reason = error.success ? error.data.error.message : `HTTP ${response.status}`;
      throw new DemoApiError(`${url}: ${reason}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new DemoApiError(`${url}: unexpected answer.`);
    return parsed.data;
  };
  const json = (token: string | undefined, body: unknown): RequestInit => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

  return {
    users: async () => (await request(DEMO_PATHS.users, {}, demoUsersResponseSchema)).users,
    logIn: (userId, authTime) =>
      request(DEMO_PATHS.sessions, json(undefined, { userId, authTime }), sessionSchema),
    signPurchase: (token, purchase) =>
      request(DEMO_PATHS.storeKitTransactions, json(token, purchase), signedPurchaseSchema),
  };
}
