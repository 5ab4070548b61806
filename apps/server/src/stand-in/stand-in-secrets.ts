import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { readKept, writeKept } from './stand-in-files.ts';

const secretsSchema = z.object({
  /** Signs the deliveries the stand-in sends the site (PLATFORM_WEBHOOK_SECRETS). */
  webhookSecret: z.string().startsWith('whsec_'),
  /** Verifies the events the site sends the stand-in (PLATFORM_EVENTS_SECRET). */
  eventsSecret: z.string().startsWith('whsec_'),
  /** The service token the site calls the stand-in's API with (PLATFORM_API_TOKEN). */
  apiToken: z.string().min(32),
});
export type StandInSecrets = z.infer<typeof secretsSchema>;

const whsec = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The stand-in's secrets, generated on its first start and kept in `path` from then on. */
export async function loadStandInSecrets(path: string): Promise<StandInSecrets> {
  const kept = await readKept(path);
  if (kept !== undefined) return secretsSchema.parse(kept);
  const secrets: StandInSecrets = {
    webhookSecret: whsec(),
    eventsSecret: whsec(),
    apiToken: randomBytes(32).toString('base64url'),
  };
  await writeKept(path, secrets);
  return secrets;
}
