import type { FastifyReply } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCOUNT_DELETION_CODE_CHECK_PATH,
  ACCOUNT_DELETION_CODE_PATH,
  ACCOUNT_DELETION_PATH,
  checkCodeBodySchema,
  confirmDeletionBodySchema,
  confirmDeletionResponseSchema,
  DELETION_COOL_OFF_DAYS,
  DELETION_ERROR_CODES as CODES,
  deletionErrorSchema,
  deletionOverviewSchema,
  maskPhone,
  RETENTION,
  SMS_RESEND_SECONDS,
  sendCodeResponseSchema,
  type DeletionError,
  type DeletionOverview,
} from '@guquan/contract/account-deletion';
import { currentUser, requireUser } from '../auth/authenticate.ts';
import type { Authenticator } from '../auth/user-authenticator.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import { apiRoute } from '../http/api-paths.ts';
import {
  cancelPendingRequest,
  content,
  createRequest,
  findBlockers,
  findCancelledByLogin,
  findPendingRequest,
  findPhone,
} from './deletion-requests.ts';
import { checkCode, discardCode, issueCode, useCode } from './sms-codes.ts';
import type { SmsSender } from './sms-sender.ts';

export interface AccountDeletionRoutesOptions {
  db: Db;
  /** The user's own figures of what a deletion takes away. */
  losses: (userId: number, now: Date) => Promise<DeletionOverview['losses']>;
  auth: Authenticator;
  sms: SmsSender;
  phones: PhoneProtection;
  now?: () => Date;
}

function sendDeletionError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  extra: Omit<DeletionError['error'], 'code' | 'message'> = {},
): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({ error: { code, message, ...extra } });
}

/**
 * What both steps (sending a code, confirming with it) check first: no open case blocks the
 * deletion, and a phone is bound. The phone, or the refusal already sent.
 */
async function deletablePhone(
  db: Db,
  phones: PhoneProtection,
  userId: number,
  reply: FastifyReply,
): Promise<string | FastifyReply> {
  const blockers = await findBlockers(db, userId);
  if (blockers.length > 0) {
    return sendDeletionError(reply, 409, CODES.blocked, 'Resolve the open cases first.', {
      blockers,
    });
  }
  const phone = await findPhone(db, phones, userId);
  if (phone === null) {
    return sendDeletionError(reply, 409, CODES.noPhone, 'Bind a phone number in the app first.');
  }
  return phone;
}

const errors = {
  400: deletionErrorSchema,
  401: deletionErrorSchema,
  409: deletionErrorSchema,
};

const CODE_ERRORS = {
  missing: [CODES.noCode, 'No code was sent, or a newer one replaced it. Ask for a new code.'],
  used: [CODES.codeUsed, 'This code has been used. Ask for a new code.'],
  expired: [CODES.codeExpired, 'This code has expired. Ask for a new code.'],
  attempts_exceeded: [CODES.tooManyAttempts, 'Too many wrong tries. Ask for a new code.'],
  wrong: [CODES.wrongCode, 'The code is wrong.'],
} as const;

/** 409: a request is pending, so no code is needed (a double tap, another device). */
function sendAlreadyPending(reply: FastifyReply): FastifyReply {
  return sendDeletionError(
    reply,
    409,
    CODES.pending,
    'The account is already scheduled for deletion.',
  );
}

/** A code refused: 400 with its reason, and the tries left after a wrong one. */
function sendCodeRefusal(
  reply: FastifyReply,
  refused: Exclude<Awaited<ReturnType<typeof checkCode>>, { ok: true }>,
): FastifyReply {
  const [code, message] = CODE_ERRORS[refused.reason];
  return sendDeletionError(
    reply,
    400,
    code,
    message,
    refused.reason === 'wrong' ? { attemptsLeft: refused.attemptsLeft } : {},
  );
}

/**
 * Account deletion for the logged-in user (PRODUCT.md "Delete account"): what it means, the SMS
 * code, the request with its cool-off, and cancelling it. Every route needs a session.
 */
export const accountDeletionRoutes: FastifyPluginCallbackZod<AccountDeletionRoutesOptions> = (
  app,
  { db, losses, auth, sms, phones, now = () => new Date() },
  done,
) => {
  const authenticated = requireUser(auth);

  app.get(
    apiRoute(ACCOUNT_DELETION_PATH),
    {
      onRequest: authenticated,
      schema: { response: { 200: deletionOverviewSchema, 401: deletionErrorSchema } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const at = now();
      const phone = await findPhone(db, phones, user.id);
      const pending = await findPendingRequest(db, user.id);
      return reply.header('cache-control', 'no-store').send({
        maskedPhone: phone === null ? null : maskPhone(phone),
        content: await content(db, user.id),
        losses: await losses(user.id, at),
        retained: [...RETENTION],
        blockers: await findBlockers(db, user.id),
        request: pending
          ? { requestedAt: pending.requestedAt, deletesAt: pending.deletesAt }
          : null,
        cancelledByLogin: pending ? null : await findCancelledByLogin(db, user.id, at),
        coolOffDays: DELETION_COOL_OFF_DAYS,
      });
    },
  );

  app.post(
    apiRoute(ACCOUNT_DELETION_CODE_PATH),
    {
      onRequest: authenticated,
      // Per address, against a flood of sessions; the per-user and per-phone limits are below.
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        response: {
          201: sendCodeResponseSchema,
          ...errors,
          429: deletionErrorSchema,
          502: deletionErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const at = now();
      if (await findPendingRequest(db, user.id)) return sendAlreadyPending(reply);
      const phone = await deletablePhone(db, phones, user.id, reply);
      if (typeof phone !== 'string') return phone;
      const issued = await issueCode(db, phones, user.id, phone, at);
      if (!issued.ok) {
        return sendDeletionError(
          reply.header('retry-after', String(issued.retryAfterSeconds)),
          429,
          CODES.rateLimited,
          `Too many codes. Try again in ${issued.retryAfterSeconds} seconds.`,
          { retryAfterSeconds: issued.retryAfterSeconds },
        );
      }
      try {
        await sms.send({ kind: 'verification_code', phone, code: issued.code });
      } catch (error) {
        request.log.error({ err: error }, 'the deletion code could not be sent');
        await discardCode(db, issued.codeId, at);
        return sendDeletionError(
          reply,
          502,
          CODES.smsFailed,
          'The text could not be sent. Try again later.',
        );
      }
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({
          maskedPhone: maskPhone(phone),
          expiresAt: issued.expiresAt,
          resendAfterSeconds: SMS_RESEND_SECONDS,
        });
    },
  );

  app.post(
    apiRoute(ACCOUNT_DELETION_PATH),
    {
      onRequest: authenticated,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        body: confirmDeletionBodySchema,
        response: {
          200: confirmDeletionResponseSchema,
          201: confirmDeletionResponseSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const at = now();
      const answer = (status: 200 | 201, found: { requestedAt: string; deletesAt: string }) =>
        reply
          .code(status)
          .header('cache-control', 'no-store')
          .send({ request: { requestedAt: found.requestedAt, deletesAt: found.deletesAt } });

      // A repeated confirmation (double tap, retry) gets the same request.
      const pending = await findPendingRequest(db, user.id);
      if (pending) return answer(200, pending);
      const phone = await deletablePhone(db, phones, user.id, reply);
      if (typeof phone !== 'string') return phone;
      const checked = await checkCode(db, phones, user.id, phone, request.body.code, at);
      if (!checked.ok) return sendCodeRefusal(reply, checked);
      const outcome = await db.transaction().execute(async (trx) => {
        if (!(await useCode(trx, checked.codeId, at))) {
          const raced = await findPendingRequest(trx, user.id);
          return raced
            ? { state: 'existing' as const, request: raced }
            : { state: 'used' as const };
        }
        // From now on every token issued before `at` is refused, this page's own too: the page
        // asks the app for a refreshed one (a later iat, the same auth_time) to show the date
        // and offer the cancel button (docs/decisions/0022-platform-tokens.md).
        const created = await createRequest(trx, user.id, at);
        return { state: 'created' as const, request: created };
      });
      if (outcome.state === 'used') {
        const [code, message] = CODE_ERRORS.used;
        return sendDeletionError(reply, 400, code, message);
      }
      return answer(outcome.state === 'created' ? 201 : 200, outcome.request);
    },
  );

  // The code checked before the page's last confirmation (issue 39): a wrong one is said at once,
  // not after the user confirmed. It counts as a try (five in all) and uses nothing.
  app.post(
    apiRoute(ACCOUNT_DELETION_CODE_CHECK_PATH),
    {
      onRequest: authenticated,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        body: checkCodeBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (await findPendingRequest(db, user.id)) return sendAlreadyPending(reply);
      const phone = await deletablePhone(db, phones, user.id, reply);
      if (typeof phone !== 'string') return phone;
      const checked = await checkCode(db, phones, user.id, phone, request.body.code, now());
      if (!checked.ok) return sendCodeRefusal(reply, checked);
      return reply.code(204).header('cache-control', 'no-store').send(null);
    },
  );

  app.delete(
    apiRoute(ACCOUNT_DELETION_PATH),
    { onRequest: authenticated, schema: { response: { 204: z.null(), 401: deletionErrorSchema } } },
    async (request, reply) => {
      // Idempotent: cancelling twice, or with nothing pending, leaves the same state.
      await cancelPendingRequest(db, currentUser(request).id, 'user', now());
      return reply.code(204).header('cache-control', 'no-store').send(null);
    },
  );
  done();
};
