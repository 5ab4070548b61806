import type { Db } from '../db/database.ts';
import { leaseEnd, leaseFree, newLease, NO_LEASE } from '../db/leases.ts';
import type { WeChatCredentialsTable } from '../db/schema.ts';
import { retryWhile } from '../timing/retry-while.ts';
import { WeChatApiError, type Credential, type WeChatApi } from './wechat-api.ts';

/**
 * The access_token and jsapi_ticket, kept in the database for every server (WeChat limits how
 * often they may be fetched) and fetched again a little before they expire. When many requests on
 * many servers find one stale at once, a lease claimed by one conditional UPDATE lets exactly one
 * of them ask WeChat; the others keep using the old value while it is still valid, or wait briefly
 * for the new one. After a failure nobody asks WeChat again for a short while.
 */
type Kind = WeChatCredentialsTable['kind'];

export interface CredentialCacheOptions {
  db: Db;
  api: WeChatApi;
  /** The official account the credentials belong to. */
  appId: string;
  now?: () => Date;
  /** Fetch a new one once the old one has less than this left (default 5 minutes). */
  refreshBeforeMs?: number;
  /** How long a server may take to fetch before another may try (default 30 s: up to four calls of 5 s). */
  leaseMs?: number;
  /** After a failed fetch, how long nobody tries again (default 10 s). */
  failureBackoffMs?: number;
  /** How long a request waits for another server's fetch when it has no valid value (3 s). */
  waitMs?: number;
  pollMs?: number;
}

export interface JsapiTicketSource {
  /** A valid jsapi_ticket; throws WeChatApiError when none can be had now. */
  jsapiTicket(): Promise<string>;
}

export function credentialCache({
  db,
  api,
  appId,
  now = () => new Date(),
  refreshBeforeMs = 5 * 60_000,
  leaseMs = 30_000,
  failureBackoffMs = 10_000,
  waitMs = 3000,
  pollMs = 50,
}: CredentialCacheOptions): JsapiTicketSource {
  // Requests of this process that find the same credential stale share one refresh.
  const refreshing = new Map<Kind, Promise<string>>();

  const row = (kind: Kind) =>
    db
      .selectFrom('wechat_credentials')
      .selectAll()
      .where('kind', '=', kind)
      .where('app_id', '=', appId)
      .executeTakeFirst();

  const ofKind = (kind: Kind) =>
    db.updateTable('wechat_credentials').where('kind', '=', kind).where('app_id', '=', appId);

  const validFor = (r: { value: string | null; expires_at: string | null } | undefined) =>
    r?.value && r.expires_at ? Date.parse(r.expires_at) - now().getTime() : -Infinity;

  /** Claims the right to fetch; undefined when another server holds it (or is backing off). */
  async function claim(kind: Kind): Promise<string | undefined> {
    const at = now();
    await db
      .insertInto('wechat_credentials')
      .values({
        kind,
        app_id: appId,
        value: null,
        expires_at: null,
        ...NO_LEASE,
        updated_at: at.toISOString(),
      })
      .onConflict((oc) => oc.columns(['kind', 'app_id']).doNothing())
      .execute();
    const lease = newLease(at, leaseMs);
    const result = await ofKind(kind)
      .set({ lease_token: lease.token, lease_until: lease.until })
      .where(leaseFree<'wechat_credentials'>('lease_until', at.toISOString()))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? lease.token : undefined;
  }

  async function fetchWithLease(
    kind: Kind,
    lease: string,
    fetch: () => Promise<Credential>,
  ): Promise<string> {
    const ours = () => ofKind(kind).where('lease_token', '=', lease);
    try {
      const credential = await fetch();
      const at = now();
      await ours()
        .set({
          value: credential.value,
          expires_at: new Date(at.getTime() + credential.expiresIn * 1000).toISOString(),
          ...NO_LEASE,
          updated_at: at.toISOString(),
        })
        .execute();
      return credential.value;
    } catch (error) {
      const at = now();
      await ours()
        .set({
          // The lease kept until the pause is over: nobody claims it meanwhile.
          lease_token: null,
          lease_until: leaseEnd(at, failureBackoffMs),
        })
        .execute();
      throw error;
    }
  }

  /** Waits for another server's fetch; undefined when it failed or took too long. */
  async function awaitOthers(kind: Kind): Promise<string | undefined> {
    const validValue = (r: Awaited<ReturnType<typeof row>>) =>
      validFor(r) > 0 && r?.value ? r.value : undefined;
    const current = await retryWhile(() => row(kind), {
      // A fetch under way (a lease held) and nothing valid yet: look again. No lease (a
      // failure's pause, or the lease was let go): nothing to wait for.
      isRetryable: (r) => validValue(r) === undefined && Boolean(r?.lease_token),
      tries: Math.max(1, Math.ceil(waitMs / pollMs)),
      everyMs: pollMs,
    });
    return validValue(current);
  }

  async function refresh(kind: Kind, fetch: () => Promise<Credential>): Promise<string> {
    const lease = await claim(kind);
    if (lease) {
      try {
        return await fetchWithLease(kind, lease, fetch);
      } catch (error) {
        // WeChat failed us: the old value serves as long as it is valid.
        const current = await row(kind);
        if (validFor(current) > 0 && current?.value) return current.value;
        throw error;
      }
    }
    const current = await row(kind);
    if (validFor(current) > 0 && current?.value) return current.value; // old, still valid
    const fetched = await awaitOthers(kind);
    if (fetched) return fetched;
    throw new WeChatApiError(`No ${kind.replace('_', ' ')} is available now`);
  }

  async function fresh(kind: Kind, fetch: () => Promise<Credential>): Promise<string> {
    const current = await row(kind);
    if (validFor(current) > refreshBeforeMs && current?.value) return current.value;
    let pending = refreshing.get(kind);
    if (!pending) {
      pending = refresh(kind, fetch).finally(() => refreshing.delete(kind));
      refreshing.set(kind, pending);
    }
    return pending;
  }

  /** Forgets a token WeChat refused, unless another server has replaced it already. */
  async function forgetToken(token: string): Promise<void> {
    await ofKind('access_token')
      .set({ value: null, expires_at: null, updated_at: now().toISOString() })
      .where('value', '=', token)
      .execute();
  }

  const accessToken = () => fresh('access_token', () => api.accessToken());

  return {
    jsapiTicket: () =>
      fresh('jsapi_ticket', async () => {
        const token = await accessToken();
        try {
          return await api.jsapiTicket(token);
        } catch (error) {
          // 40001/42001: the token is no longer valid (refreshed elsewhere, or expired early).
          if (!(error instanceof WeChatApiError && error.tokenRejected)) throw error;
          await forgetToken(token);
          return api.jsapiTicket(await accessToken());
        }
      }),
  };
}
