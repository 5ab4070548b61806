import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { samePhoneKeys, type RotatingPhoneProtection } from '../crypto/phone-keys.ts';
import type { Config } from './env.ts';
import type { PlatformConfig } from './platform-config.ts';

/**
 * Secrets rotated without a restart (docs/operations.md, "Rotating a secret"): a running server
 * takes up the platform's webhook secrets, its API token, the secret our events are signed with
 * and the phone keys from a configuration read again (secret-reload.ts reads it on SIGHUP and
 * when a secret's file changes). The platform's settings are replaced in the one PlatformConfig
 * every part holds, and every part reads them when it uses them: the next delivery is verified,
 * the next debit asked and the next event (a retry too) signed with what is current then.
 */
export interface RotatingParts {
  /** The object the app was built with: its three secrets are replaced in place. */
  platform: PlatformConfig;
  phones: RotatingPhoneProtection;
  /** Re-encrypts what an older phone key wrote (db/phone-rotation.ts); resolves to how many. */
  reencryptPhones: () => Promise<number>;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}

const rotatingParts = new WeakMap<FastifyInstance, RotatingParts>();

export function attachSecretRotation(app: FastifyInstance, parts: RotatingParts): void {
  rotatingParts.set(app, parts);
}

/** What of `app` rotates (attachSecretRotation), or undefined: nothing (an app built by a test). */
export function secretRotationOf(app: FastifyInstance): RotatingParts | undefined {
  return rotatingParts.get(app);
}

/**
 * Takes up the rotating secrets of `next` (a configuration just read) and returns the names of the
 * settings that changed (never their values). A server on the stand-in platform (demo) has no
 * platform settings of its own to rotate.
 */
export function rotateSecrets(parts: RotatingParts, next: Config): string[] {
  const changed: string[] = [];
  const { platform } = parts;
  if (next.platform) {
    if (next.platform.webhookSecrets.join(',') !== platform.webhookSecrets.join(',')) {
      platform.webhookSecrets = next.platform.webhookSecrets;
      changed.push('PLATFORM_WEBHOOK_SECRETS');
    }
    if (next.platform.apiToken !== platform.apiToken) {
      platform.apiToken = next.platform.apiToken;
      changed.push('PLATFORM_API_TOKEN');
    }
    if (next.platform.eventsSecret !== platform.eventsSecret) {
      platform.eventsSecret = next.platform.eventsSecret;
      changed.push('PLATFORM_EVENTS_SECRET');
    }
  }
  if (next.phoneKeys && !samePhoneKeys(next.phoneKeys, parts.phones.keys())) {
    parts.phones.replaceKeys(next.phoneKeys);
    changed.push('PHONE_ENCRYPTION_KEY');
    // What the previous current key wrote is written again with the new one, in the background:
    // until then, the previous keys (PHONE_ENCRYPTION_PREVIOUS_KEYS) still read it.
    parts.reencryptPhones().then(
      (rotated) => {
        parts.log.info({ rotated }, 'phone numbers re-encrypted with the current key');
      },
      (error: unknown) => {
        parts.log.error({ err: error }, 'phone numbers could not be re-encrypted; next start');
      },
    );
  }
  return changed;
}
