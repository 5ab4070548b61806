import type { FastifyInstance } from 'fastify';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import type { OutboxChannel } from '../db/schema.ts';
import { schedulePeriodicWork } from '../plugins/periodic-work.ts';
import { postTo, type PostDelivery } from '../http/signed-deliveries.ts';
import { createEventSender, EVENT_CHANNEL_INTERVAL_MS, EVENT_TIMEOUT_MS } from './event-channel.ts';
import { onOutboxQueued } from './outbox-wakeups.ts';
import { deliverTexts, TEXT_CHANNEL_INTERVAL_MS, type TextSender } from './text-channel.ts';

/** What the outbox tells the metrics (operations/metrics.ts). */
export interface OutboxObserver {
  failedAttempt: (channel: OutboxChannel) => void;
}

export interface OutboxPluginOptions {
  db: Db;
  sms: TextSender;
  phones: PhoneProtection;
  platform: Pick<PlatformConfig, 'eventsUrl' | 'eventsSecret'>;
  observer?: OutboxObserver;
  /** How events are posted (tests); over HTTP to PLATFORM_EVENTS_URL otherwise. */
  postEvents?: PostDelivery;
  /** Before the first runs; tests shorten it. */
  firstRunDelayMs?: number;
}

/** After a commit that queued an event: soon, once the transaction that queued it has ended. */
const WAKE_DELAY_MS = 200;

/**
 * Everything the site owes to others, delivered (docs/decisions/0025-outbox.md): the texts owed
 * to users every minute, the platform's events every few seconds, moments after one is queued and
 * as soon as a delivery in flight is answered (a run claims into free slots and never waits for
 * answers, so one that hangs holds up no other). Every server runs both; the leases keep them
 * from delivering a row twice at once.
 */
export function registerOutbox(
  app: FastifyInstance,
  { db, sms, phones, platform, observer, postEvents, firstRunDelayMs }: OutboxPluginOptions,
): void {
  schedulePeriodicWork(app, {
    name: 'the outbox of texts',
    intervalMs: TEXT_CHANNEL_INTERVAL_MS,
    firstRunDelayMs,
    run: () =>
      deliverTexts(db, {
        sms,
        phones,
        now: new Date(),
        log: app.log,
        onFailedAttempt: () => observer?.failedAttempt('text'),
      }),
  });
  const post = postEvents ?? postTo(platform.eventsUrl, { timeoutMs: EVENT_TIMEOUT_MS });
  const sender = createEventSender(db, {
    post,
    secret: () => platform.eventsSecret,
    log: app.log,
    onFailedAttempt: () => observer?.failedAttempt('platform_events'),
    // A slot is free again, and a split delivery's events are due at once.
    onSettled: () => {
      events.runSoon();
    },
  });
  const events = schedulePeriodicWork(app, {
    name: 'the outbox of platform events',
    intervalMs: EVENT_CHANNEL_INTERVAL_MS,
    firstRunDelayMs,
    run: () => sender.fill(),
  });
  const timers = new Set<NodeJS.Timeout>();
  const stop = onOutboxQueued((channel) => {
    if (channel !== 'platform_events') return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      events.runSoon();
    }, WAKE_DELAY_MS).unref();
    timers.add(timer);
  });
  app.addHook('onClose', async () => {
    stop();
    for (const timer of timers) clearTimeout(timer);
    // What is in flight is given back, for this or another server to send again under its id.
    await sender.stop();
  });
}
