import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  DEMO_LATEST_SMS_PATH,
  deletionErrorSchema,
  demoLatestSmsSchema,
  maskPhone,
} from '@guquan/contract/account-deletion';
import { findPhone } from '../account-deletion/deletion-requests.ts';
import { currentUser, requireUser } from '../auth/authenticate.ts';
import type { Authenticator } from '../auth/user-authenticator.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import type { DemoSmsSender } from './demo-sms-sender.ts';

/** Demo mode only: the code the demo sender kept, for the bridge simulator to show. */
export const demoSmsRoutes: FastifyPluginCallbackZod<{
  db: Db;
  auth: Authenticator;
  sms: DemoSmsSender;
  phones: PhoneProtection;
}> = (app, { db, auth, sms, phones }, done) => {
  app.get(
    apiRoute(DEMO_LATEST_SMS_PATH),
    {
      onRequest: requireUser(auth),
      schema: {
        response: { 200: demoLatestSmsSchema, 401: deletionErrorSchema, 404: deletionErrorSchema },
      },
    },
    async (request, reply) => {
      const phone = await findPhone(db, phones, currentUser(request).id);
      const latest = phone === null ? undefined : sms.latestCode(phone);
      if (phone === null || !latest) {
        return sendApiError(reply, 404, 'not_found', 'No code has been sent to this account.');
      }
      return reply
        .header('cache-control', 'no-store')
        .send({ maskedPhone: maskPhone(phone), code: latest.code, sentAt: latest.sentAt });
    },
  );
  done();
};
