import { z } from 'zod';
import { API_BASE_PATH } from './site-paths.ts';

export const HEALTH_PATH = `${API_BASE_PATH}/health`;

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number().nonnegative(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
