import { z } from 'zod';

/** Branding and prices the console reads at run time from `GET /api/config`. */
export const PublicConfigSchema = z
  .object({
    productName: z.string(),
    providerName: z.string(),
    providerShortName: z.string(),
    currency: z.string(),
    smsPrice: z.string(),
  })
  .meta({ id: 'PublicConfig' });
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
