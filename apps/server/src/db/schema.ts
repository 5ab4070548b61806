import type { Generated } from 'kysely';
import type { DesignFileFormat, DesignUse } from '@guquan/contract/design';
import type { FunnelEvent, ShareChannel } from '@guquan/contract/funnel-events';
import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * The database as Kysely sees it. Portable types only, so the same tables work on SQLite and
 * PostgreSQL: timestamps are ISO 8601 text, tags a JSON array as text, counts integers. The
 * integer `id`s are the server's own; only `public_id`s ever leave it.
 */
export type Visibility = 'public' | 'private';
export type GoodsStatusColumn = 'display' | 'selling' | 'wanted';

export interface ImagesTable {
  id: Generated<number>;
  public_id: string;
  width: number;
  height: number;
  alt: string;
  /** The original's file name in DATA_DIR/media (a bare name, never a path); '' until fetched. */
  file_name: string;
  created_at: string;
  /** Where the platform keeps the original (one row per URL); null for the site's own images. */
  source_url: string | null;
  /** `waiting` until its file is here (pages show the placeholder), `failed` when refused. */
  state: Generated<ImageState>;
  fetch_attempts: Generated<number>;
  /** When the next fetch may start (null: now); a fetching server moves it ahead (its lease). */
  fetch_after: string | null;
  /** Why the last attempt failed, for the logs and operators (never shown to visitors). */
  fetch_error: string | null;
}

export type ImageState = 'waiting' | 'ready' | 'failed';

export interface UsersTable {
  id: Generated<number>;
  public_id: string;
  nickname: string;
  avatar_image_id: number | null;
  created_at: string;
  /** The bound phone, encrypted (crypto/phone-protection.ts); null once the account is deleted. */
  phone_encrypted: string | null;
  /** The phone's blind index, unique: one account per number. */
  phone_index: string | null;
  /** Set when the deletion job has anonymized the account. */
  deleted_at: string | null;
  /** The `version` of the user's latest `membership.changed` event (0 before any). */
  membership_version: Generated<number>;
  /**
   * The points balance: the platform's latest `user.upserted` sets it, a redemption debits it
   * (never below zero: a database rule).
   */
  points: Generated<number>;
}

export interface GoodsTable {
  id: Generated<number>;
  public_id: string;
  owner_id: number;
  name: string;
  work: string;
  character: string | null;
  category: string;
  price_fen: number | null;
  status: GoodsStatusColumn;
  text: string;
  /** JSON array of strings. */
  tags: string;
  likes: number;
  wants: number;
  visibility: Visibility;
  created_at: string;
  removed_at: string | null;
}

export interface GoodsImagesTable {
  goods_id: number;
  image_id: number;
  position: number;
}

export interface CabinetsTable {
  id: Generated<number>;
  public_id: string;
  owner_id: number;
  name: string;
  cover_image_id: number;
  text: string;
  likes: number;
  visibility: Visibility;
  created_at: string;
  removed_at: string | null;
}

export interface CabinetGoodsTable {
  cabinet_id: number;
  goods_id: number;
  position: number;
}

export interface NotesTable {
  id: Generated<number>;
  public_id: string;
  author_id: number;
  title: string;
  text: string;
  /** JSON array of strings. */
  tags: string;
  likes: number;
  collects: number;
  visibility: Visibility;
  created_at: string;
  removed_at: string | null;
  /** How many comments the platform counts (only the top few are here); null: count the rows. */
  comment_count: Generated<number | null>;
}

export interface NoteImagesTable {
  note_id: number;
  image_id: number;
  position: number;
}

export interface CommentsTable {
  id: Generated<number>;
  public_id: string;
  note_id: number;
  author_id: number;
  text: string;
  likes: number;
  created_at: string;
  removed_at: string | null;
}

export type PlanPeriodColumn = 'month' | 'quarter' | 'year';

export interface MembershipPlansTable {
  product_id: string;
  title_zh: string;
  title_en: string;
  period: PlanPeriodColumn;
  price_fen: number;
  position: number;
  /** The plan's level in the App Store subscription group: 1 is the highest service. */
  group_level: Generated<number>;
}

export interface AppAccountTokensTable {
  user_id: number;
  /** A UUID, lower case: StoreKit's appAccountToken for this user's purchases. */
  token: string;
  created_at: string;
}

export interface AppStoreTransactionsTable {
  id: Generated<number>;
  transaction_id: string;
  original_transaction_id: string;
  user_id: number;
  product_id: string;
  purchase_date: string;
  expires_date: string;
  /** Set when the App Store refunded or revoked it: it no longer counts. */
  revoked_at: string | null;
  environment: string;
  created_at: string;
}

export interface MembershipsTable {
  user_id: number;
  product_id: string;
  original_transaction_id: string;
  /** The latest expiry among the user's transactions that still count. */
  expires_at: string;
  /** 1 on, 0 off, null unknown. */
  auto_renew: number | null;
  /** The plan the next renewal bills (the App Store's autoRenewProductId); null when unknown. */
  renewal_product_id: string | null;
  updated_at: string;
}

export interface AppStoreNotificationsTable {
  notification_uuid: string;
  notification_type: string;
  subtype: string | null;
  received_at: string;
}

export interface DesignsTable {
  id: Generated<number>;
  public_id: string;
  designer_id: number;
  title: string;
  /** Watermarked: the full drawing is only ever in the app. */
  preview_image_id: number;
  price_points: number;
  created_at: string;
  retired_at: string | null;
  /** The file a redemption gives (migration 0019); null until the platform says. */
  file_format: DesignFileFormat | null;
  file_width: number | null;
  file_height: number | null;
  file_bytes: number | null;
  /** The use the designer allows; null until the platform says. */
  use_allowed: DesignUse | null;
}

/** Where a redemption stands (migration 0018): the platform asked, then its answer. */
export type RedemptionRowState = 'pending' | 'redeemed' | 'refused';

export interface RedemptionsTable {
  id: Generated<number>;
  public_id: string;
  user_id: number;
  design_id: number;
  /** The page's key for the attempt; the platform's Idempotency-Key is public_id. */
  idempotency_key: string;
  price_points: number;
  state: RedemptionRowState;
  /** The balance the platform answered to the debit (redeemed only). */
  balance_after: number | null;
  debit_id: string | null;
  attempts: number;
  next_attempt_at: string | null;
  lease_token: string | null;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AccountDeletionRequestsTable {
  id: Generated<number>;
  user_id: number;
  requested_at: string;
  deletes_at: string;
  cancelled_at: string | null;
  cancel_reason: 'user' | 'login' | null;
  completed_at: string | null;
}

export interface SmsCodesTable {
  id: Generated<number>;
  user_id: number;
  /** The blind index of the phone the code went to (the number itself is not needed). */
  phone_index: string;
  purpose: 'account_deletion';
  /** scrypt of the code with a salt: `salt:hash`, hex. */
  code_hash: string;
  created_at: string;
  expires_at: string;
  attempts: Generated<number>;
  used_at: string | null;
}

export interface AccountCasesTable {
  id: Generated<number>;
  user_id: number;
  kind: 'exposure_in_review' | 'appeal_open' | 'under_investigation';
  title: string;
  status: 'open' | 'closed';
  opened_at: string;
  closed_at: string | null;
}

export interface RetainedRecordsTable {
  id: Generated<number>;
  /** The anonymized account's row: no name or phone is left on it. */
  user_id: number;
  kind: 'goods';
  /** JSON of the record as it was. */
  payload: string;
  created_at: string;
  retain_until: string;
}

export interface MediaDeletionsTable {
  id: Generated<number>;
  image_public_id: string;
  file_name: string;
  queued_at: string;
}

/** What a row of the outbox is owed as (outbox/): a text to a user, or an event to the platform. */
export type OutboxChannel = 'text' | 'platform_events';

/** Everything the site owes to others, until delivered (outbox/, docs/decisions/0025-outbox.md). */
export interface OutboxTable {
  id: Generated<number>;
  channel: OutboxChannel;
  /** A text's kind (`account_deleted`), an event's type (`membership.changed`). */
  kind: string;
  /** Rows of one key go one delivery at a time, oldest first: a user's events (SHA-256 of the id). */
  partition_key: string | null;
  /**
   * A text's number encrypted like users.phone_encrypted, an event's JSON; null once delivered
   * or given up.
   */
  payload: string | null;
  queued_at: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_token: string | null;
  lease_until: string | null;
  /** The delivery an event was first sent in: a retry re-sends the same rows under it. */
  webhook_id: string | null;
  delivered_at: string | null;
  failed_at: string | null;
  last_error: string | null;
}

/** WeChat's access_token and jsapi_ticket, shared by the servers (wechat/credential-cache.ts). */
export interface WeChatCredentialsTable {
  kind: 'access_token' | 'jsapi_ticket';
  /** The official account they belong to. */
  app_id: string;
  value: string | null;
  expires_at: string | null;
  lease_token: string | null;
  lease_until: string | null;
  updated_at: string;
}

/** A handoff code of a share text (app-links/handoff-store.ts): its target and times only. */
export interface AppLinkHandoffsTable {
  id: Generated<number>;
  /** SHA-256 of the code (hex): the code itself is only ever on the visitor's clipboard. */
  code_digest: string;
  target_kind: ShareKind;
  target_id: string;
  target_image: number | null;
  created_at: string;
  expires_at: string;
}

/**
 * One install's claim of a code: SHA-256 of the code and the app's install id together, so a
 * claim repeated counts once and the same install cannot be told across codes.
 */
export interface AppLinkClaimsTable {
  handoff_id: number;
  install_digest: string;
  claimed_at: string;
}

/** The share funnel's daily counts (funnel/funnel-repository.ts): no visitor's data, only sums. */
export interface ShareFunnelDaysTable {
  /** YYYY-MM-DD, China Standard Time. */
  day: string;
  kind: ShareKind;
  /** The item's public id. */
  item_id: string;
  channel: ShareChannel;
  event: FunnelEvent;
  count: number;
}

/** The kinds of entity the platform sends (PRODUCT.md, "Events in"). */
export type PlatformEntityType = 'user' | ShareKind | 'design';

export interface PlatformVersionsTable {
  type: PlatformEntityType;
  public_id: string;
  version: number;
  /** A removal's tombstone: an older upsert arriving late cannot bring the entity back. */
  removed: Generated<boolean>;
  updated_at: string;
}

export interface PlatformWaitingTable {
  type: PlatformEntityType;
  public_id: string;
  version: number;
  /** The event's `data`, JSON. */
  data: string;
  received_at: string;
}

export interface PlatformWaitingNeedsTable {
  type: PlatformEntityType;
  public_id: string;
  needs_type: PlatformEntityType;
  needs_id: string;
}

export interface PlatformDeliveriesTable {
  webhook_id: string;
  applied: number;
  ignored: number;
  /** Events kept waiting for what they name; null for a delivery recorded before 0021. */
  waiting: number | null;
  /** The ignored events by reason, JSON (contract: PlatformIgnoredCounts); null before 0021. */
  ignored_because: string | null;
  received_at: string;
}

export interface Database {
  images: ImagesTable;
  users: UsersTable;
  goods: GoodsTable;
  goods_images: GoodsImagesTable;
  cabinets: CabinetsTable;
  cabinet_goods: CabinetGoodsTable;
  notes: NotesTable;
  note_images: NoteImagesTable;
  comments: CommentsTable;
  membership_plans: MembershipPlansTable;
  app_account_tokens: AppAccountTokensTable;
  app_store_transactions: AppStoreTransactionsTable;
  memberships: MembershipsTable;
  app_store_notifications: AppStoreNotificationsTable;
  designs: DesignsTable;
  redemptions: RedemptionsTable;
  account_deletion_requests: AccountDeletionRequestsTable;
  sms_codes: SmsCodesTable;
  account_cases: AccountCasesTable;
  retained_records: RetainedRecordsTable;
  media_deletions: MediaDeletionsTable;
  outbox: OutboxTable;
  wechat_credentials: WeChatCredentialsTable;
  app_link_handoffs: AppLinkHandoffsTable;
  app_link_claims: AppLinkClaimsTable;
  share_funnel_days: ShareFunnelDaysTable;
  platform_versions: PlatformVersionsTable;
  platform_waiting: PlatformWaitingTable;
  platform_waiting_needs: PlatformWaitingNeedsTable;
  platform_deliveries: PlatformDeliveriesTable;
}
