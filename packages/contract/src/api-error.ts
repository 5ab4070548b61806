import { z } from 'zod';

/** The one shape of every error the API answers with. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** The request's id, as the server logged it: quote it when reporting a problem. */
    requestId: z.string().optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
