import { vi } from 'vitest';
import { DEMO_PATHS } from '../features/bridge-simulator/demo-api';

/**
 * A stand-in for the demo server's endpoints the simulator calls, as a fetch function: demo users,
 * demo log-in (tokens shaped as the platform's JWTs, with `auth_time`) and signed StoreKit
 * transactions (checked against the issued tokens).
 */
export const DEMO_USERS = [
  { id: 'Uq3x9TmKd2Lp7Wz1', nickname: '谷子收藏家' },
  { id: 'Vb7n2QwEr5Ty8Ui0', nickname: '痛柜达人' },
] as const;

export interface FakeDemoServer {
  fetch: typeof fetch;
  requests: { method: string; url: string; authorization: string | null; body: unknown }[];
  tokens: Map<string, string>;
  /** Makes the next requests to this path fail with this status. */
  failPath: (path: string, status: number) => void;
  /** Requests to this path succeed again. */
  healPath: (path: string) => void;
  /** The demo SMS sender "sends" this code to the user's phone (demo/sms/latest answers it). */
  sendSms: (userId: string, code: string) => void;
}

function base64url(text: string): string {
  return btoa(text).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function createFakeDemoServer(): FakeDemoServer {
  const requests: FakeDemoServer['requests'] = [];
  const tokens = new Map<string, string>();
  const failures = new Map<string, number>();
  const smsByUser = new Map<string, { maskedPhone: string; code: string; sentAt: string }>();
  let sequence = 0;

  const json = (status: number, body: unknown) =>
    new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });

  const handle = (method: string, url: string, authorization: string | null, body: unknown) => {
    const failure = failures.get(url);
    if (failure) return json(failure, { error: { code: 'broken', message: 'Simulated outage.' } });
    if (method === 'GET' && url === DEMO_PATHS.users) return json(200, { users: DEMO_USERS });
    if (method === 'POST' && url === DEMO_PATHS.sessions) {
      const { userId, authTime } = body as { userId: string; authTime?: number };
      if (!DEMO_USERS.some((user) => user.id === userId)) {
        return json(404, { error: { code: 'not_found', message: 'There is no such demo user.' } });
      }
      sequence += 1;
      const claims = { sub: userId, auth_time: authTime ?? 1_772_323_200 + sequence };
      const token = `eyJhbGciOiJFUzI1NiJ9.${base64url(JSON.stringify(claims))}.sig${String(sequence)}`;
      tokens.set(token, userId);
      return json(201, { token, userId, expiresAt: '2099-01-01T00:00:00.000Z' });
    }
    if (method === 'POST' && url === DEMO_PATHS.storeKitTransactions) {
      const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
      if (!token || !tokens.has(token)) {
        return json(401, { error: { code: 'unauthorized', message: 'Log in again.' } });
      }
      sequence += 1;
      const transactionId = `20000000000${sequence}`;
      const payload = btoa(JSON.stringify({ transactionId, ...(body as object) })).replace(
        /=+$/,
        '',
      );
      return json(201, {
        signedTransaction: `eyJhbGciOiJFUzI1NiJ9.${payload}.c2ln`,
        transactionId,
        signedRenewalInfo: `eyJhbGciOiJFUzI1NiJ9.${btoa(JSON.stringify({ originalTransactionId: transactionId })).replace(/=+$/, '')}.c2ln`,
        change: 'new',
      });
    }
    if (method === 'GET' && url === DEMO_PATHS.latestSms) {
      const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
      const userId = token === undefined ? undefined : tokens.get(token);
      if (!userId) return json(401, { error: { code: 'unauthorized', message: 'Log in again.' } });
      const sms = smsByUser.get(userId);
      return sms ? json(200, sms) : new Response(null, { status: 204 });
    }
    return json(404, { error: { code: 'not_found', message: 'No such endpoint.' } });
  };

  const fetchFn = vi.fn((input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init.method ?? 'GET';
    const headers = new Headers(init.headers);
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ method, url, authorization: headers.get('authorization'), body });
    return Promise.resolve(handle(method, url, headers.get('authorization'), body));
  });

  return {
    fetch: fetchFn,
    requests,
    tokens,
    failPath: (path, status) => {
      failures.set(path, status);
    },
    healPath: (path) => {
      failures.delete(path);
    },
    sendSms: (userId, code) => {
      smsByUser.set(userId, {
        maskedPhone: '138****0001',
        code,
        sentAt: '2026-11-27T10:03:05.000Z',
      });
    },
  };
}

/** An in-memory Storage, so each test starts with an empty one. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => {
      items.clear();
    },
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, value);
    },
  };
}
