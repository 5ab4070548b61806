import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppMode } from '../config/env.ts';
import { cspDirectives } from './csp-directives.ts';

/**
 * Strict headers on every response. Scripts run only from our origin; a page's own inline script
 * and style are allowed by their hashes in the page's policy (pages/page-csp.ts), never by a
 * per-request nonce, so pages can be cached. Nothing may frame the site; powerful browser
 * features are off except what pages use.
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'clipboard-write=(self)',
  'display-capture=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

export async function registerSecurityHeaders(app: FastifyInstance, mode: AppMode): Promise<void> {
  const production = mode === 'production';
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      // Mutable copies: helmet's types want arrays it may change.
      directives: Object.fromEntries(
        Object.entries(cspDirectives(production)).map(([name, values]) => [name, [...values]]),
      ),
    },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: production ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
  });
}
