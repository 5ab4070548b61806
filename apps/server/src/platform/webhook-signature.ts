import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/**
 * Standard Webhooks 1.0 (PRODUCT.md, "Events in"), with the `standardwebhooks` package: the HMAC
 * of `id.timestamp.body` over the RAW body, any of the secrets (more than one while the platform
 * rotates), the timestamp within 5 minutes either side (the package's tolerance).
 */
export type SignatureCheck = { ok: true; webhookId: string } | { ok: false; reason: string };

export interface WebhookVerifier {
  verify(body: Buffer, headers: Record<string, string | string[] | undefined>): SignatureCheck;
}

const HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * @param secrets the secrets now: read at each delivery, so a rotation (config/secret-rotation.ts)
 *   counts from the next one.
 */
export function webhookVerifier(secrets: () => readonly string[]): WebhookVerifier {
  let made: { from: readonly string[]; webhooks: Webhook[] } | undefined;
  const current = () => {
    const now = secrets();
    if (made?.from !== now)
      made = { from: now, webhooks: now.map((secret) => new Webhook(secret)) };
    return made.webhooks;
  };
  return {
    verify(body, headers) {
      const signed: Record<string, string> = {};
      for (const name of HEADERS) {
        const value = headers[name];
        if (typeof value !== 'string' || value === '') {
          return { ok: false, reason: `The ${name} header is missing.` };
        }
        signed[name] = value;
      }
      let reason = 'No signature matches.';
      for (const webhook of current()) {
        try {
          webhook.verify(body, signed, { jsonParse: false });
          return { ok: true, webhookId: signed['webhook-id'] ?? '' };
        } catch (error) {
          if (!(error instanceof WebhookVerificationError)) throw error;
          reason = `${error.message}.`;
        }
      }
      return { ok: false, reason };
    },
  };
}
