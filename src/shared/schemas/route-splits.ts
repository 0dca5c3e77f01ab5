import { z } from 'zod';
import {
  DEFAULT_ROUTE_WEIGHT,
  DELIVERY_METHODS,
  MAX_ROUTE_WEIGHT,
} from '../limits.ts';
import { IdSchema, ListMetaSchema } from './common.ts';

export const DeliveryMethodSchema = z.enum(DELIVERY_METHODS, {
  message: `Delivery method must be one of ${DELIVERY_METHODS.join(', ')}`,
});
/**
 * A number, or a numeric string from a form field. Not z.coerce: it would turn a JSON null,
 * true, "" or [5] into a weight instead of refusing the wrong type.
 */
export const WeightSchema = z.preprocess(
  (value) =>
    typeof value === 'string' && value.trim() !== '' ? Number(value) : value,
  z
    .number()
    .int('Weight must be an integer')
    .min(0, 'Weight must not be negative')
    .max(MAX_ROUTE_WEIGHT, `Weight must be at most ${MAX_ROUTE_WEIGHT}`),
);

export const RouteSplitSchema = z
  .object({
    id: IdSchema,
    userId: IdSchema,
    clientId: IdSchema,
    deliveryMethod: DeliveryMethodSchema,
    weight: z.number().int().nonnegative(),
  })
  .meta({ id: 'RouteSplit' });
export type RouteSplit = z.infer<typeof RouteSplitSchema>;

export const CreateRouteSplitSchema = z.object({
  userId: IdSchema,
  clientId: IdSchema,
  deliveryMethod: DeliveryMethodSchema,
  weight: WeightSchema.optional().default(DEFAULT_ROUTE_WEIGHT),
});
export type CreateRouteSplitInput = z.input<typeof CreateRouteSplitSchema>;

export const UpdateRouteSplitSchema = z.object({
  deliveryMethod: DeliveryMethodSchema,
  weight: WeightSchema,
});

export const RouteSplitQuerySchema = z.object({
  userId: IdSchema.optional(),
  clientId: IdSchema.optional(),
});

/**
 * A split in the list, with what it was meant to carry and what it did: `configuredShare` is
 * its weight over the client's weights > 0 (0 for a drained split); `messages24h` the client's
 * messages of the last 24 hours whose delivery method is this split's (after failover: the
 * method that carried it), and `realisedShare` their share of all the client's routed messages
 * of those 24 hours (null when there were none). Fractions from 0 to 1, to 4 decimals.
 */
export const RouteSplitWithShareSchema = RouteSplitSchema.extend({
  configuredShare: z.number(),
  realisedShare: z.number().nullable(),
  messages24h: z.number().int().nonnegative(),
}).meta({ id: 'RouteSplitWithShare' });
export type RouteSplitWithShare = z.infer<typeof RouteSplitWithShareSchema>;

export const RouteSplitListSchema = ListMetaSchema.extend({
  routes: z.array(RouteSplitWithShareSchema),
});
