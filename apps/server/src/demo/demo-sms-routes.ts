import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { apiRoute } from '../http/api-paths.ts';
import type { DemoSmsSender } from './demo-sms-sender.ts';

/**
 * Demo mode only: the code the demo sender kept, for the bridge simulator to show; 204 while none
 * was sent (a normal state the panel polls through, which a 404 would log in the browser).
 */
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
        response: {
          200: demoLatestSmsSchema,
          204: z.null().describe('No code has been sent to this account yet'),
          401: deletionErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const phone = await findPhone(db, phones, currentUser(request).id);
      const latest = phone === null ? undefined : sms.latestCode(phone);
      if (phone === null || !latest) {
        return reply.code(204).header('cache-control', 'no-store').send(null);
      }
      return reply
        .header('cache-control', 'no-store')
        .send({ maskedPhone: maskPhone(phone), code: latest.code, sentAt: latest.sentAt });
    },
  );
  done();
};
