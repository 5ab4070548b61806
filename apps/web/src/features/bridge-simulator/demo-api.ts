import type { z } from 'zod';
import { DEMO_LATEST_SMS_PATH, demoLatestSmsSchema } from '@guquan/contract/account-deletion';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  DEMO_PLATFORM_FAULTS_PATH,
  DEMO_PLATFORM_PATH,
  demoPlatformSchema,
  type DemoPlatform,
  type DemoPlatformFaults,
} from '@guquan/contract/demo-platform';
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
 * the stand-in platform signs) and the App Store's signed transactions; and the tester's window
 * on the stand-in platform (its points ledger, the events it received, their faults). These
 * endpoints exist in demo mode only.
 */
export const DEMO_PATHS = {
  users: DEMO_USERS_PATH,
  sessions: DEMO_SESSIONS_PATH,
  storeKitTransactions: DEMO_STOREKIT_TRANSACTIONS_PATH,
  platform: DEMO_PLATFORM_PATH,
  platformFaults: DEMO_PLATFORM_FAULTS_PATH,
  latestSms: DEMO_LATEST_SMS_PATH,
} as const;

const signedPurchaseSchema = demoStoreKitResponseSchema;
export type SignedPurchase = z.infer<typeof signedPurchaseSchema>;

/** The demo SMS sender's last code to a user: the masked phone, the code, when it was sent. */
export type DemoLatestSms = z.infer<typeof demoLatestSmsSchema>;

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
  /** What the stand-in platform holds: its ledger and the deliveries it received (null: none). */
  platform(): Promise<DemoPlatform>;
  /** What the stand-in does to the next debit and the next deliveries. */
  setPlatformFaults(faults: DemoPlatformFaults): Promise<void>;
  /**
   * The last SMS code the demo sender "sent" to the user's phone (an account deletion's), asked
   * with the user's token as the page asks; null when none was sent.
   */
  latestSms(token: string): Promise<DemoLatestSms | null>;
}

type Fetch = typeof fetch;

export function createDemoApi(fetchFn: Fetch): DemoApi {
  /** The answer's body, once it is known to be a success (or, if `absent` is its status, null). */
  const send = async (url: string, init: RequestInit, absent?: number): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetchFn(url, { ...init, cache: 'no-store' });
    } catch {
      throw new DemoApiError(`The demo server could not be reached (${url}).`);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (response.status === absent) return null;
    if (!response.ok) {
      const error = apiErrorSchema.safeParse(body);
      const reason = error.success ? error.data.error.message : `HTTP ${response.status}`;
      throw new DemoApiError(`${url}: ${reason}`);
    }
    return body;
  };
  const request = async <T>(url: string, init: RequestInit, schema: z.ZodType<T>): Promise<T> => {
    const parsed = schema.safeParse(await send(url, init));
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
    platform: () => request(DEMO_PATHS.platform, {}, demoPlatformSchema),
    setPlatformFaults: async (faults) => {
      await send(DEMO_PATHS.platformFaults, json(undefined, faults));
    },
    latestSms: async (token) => {
      const body = await send(
        DEMO_PATHS.latestSms,
        { headers: { authorization: `Bearer ${token}` } },
        204,
      );
      if (body === null) return null;
      const parsed = demoLatestSmsSchema.safeParse(body);
      if (!parsed.success) throw new DemoApiError(`${DEMO_PATHS.latestSms}: unexpected answer.`);
      return parsed.data;
    },
  };
}
