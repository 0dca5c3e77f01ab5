import { z } from 'zod';

/** Branding and prices the console reads at run time from `GET /api/config`. */
export const BrandingSchema = z
  .object({
    productName: z.string(),
    providerName: z.string(),
    providerShortName: z.string(),
    currency: z.string(),
    smsPrice: z.string(),
  })
  .meta({ id: 'Branding' });
export type Branding = z.infer<typeof BrandingSchema>;
