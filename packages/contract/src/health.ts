import { z } from 'zod';
import { API_BASE_PATH } from './site-paths.ts';

export const HEALTH_PATH = `${API_BASE_PATH}/health`;

/**
 * The public health answer: up or not, nothing more. The version and the uptime are for
 * operators (the start-up log names the version), never for anyone who asks.
 */
export const healthResponseSchema = z.strictObject({
  status: z.literal('ok'),
});
/**
 * 503 while a demo server's demo data is still coming from the stand-in platform (a production
 * server is never `starting`).
 */
export const healthStartingSchema = z.strictObject({
  status: z.literal('starting'),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
