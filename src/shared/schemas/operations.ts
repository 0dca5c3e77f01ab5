import { z } from 'zod';
import { DELIVERY_METHODS } from '../limits.ts';

/** One delivery method on the Operations screen: the last hour's messages routed to it. */
export const OperationsMethodSchema = z.object({
  method: z.enum(DELIVERY_METHODS),
  /** Messages accepted in the last hour whose latest attempt was on this method, by state. */
  states: z.record(z.string(), z.number().int().nonnegative()),
  /** Seconds from acceptance to a provider taking the message (null: none in the hour). */
  latency: z.object({
    p50: z.number().nullable(),
    p95: z.number().nullable(),
  }),
  /** The answering node's connection to the method (the SMPP bind): null when it holds none. */
  bound: z.boolean().nullable(),
  /** Messages routed to this method per minute, oldest first, the 60 minutes from `since`. */
  perMinute: z.array(z.number().int().nonnegative()),
});

export const OperationsSchema = z.object({
  /** Start of the hour shown: a whole minute, 59 minutes before the current one. */
  since: z.iso.datetime(),
  /** Delivery jobs waiting for a worker, on every node. */
  queueDepth: z.number().int().nonnegative(),
  /** Messages of the hour not routed yet (no attempt), by state. */
  unrouted: z.record(z.string(), z.number().int().nonnegative()),
  methods: z.array(OperationsMethodSchema),
});

export type Operations = z.infer<typeof OperationsSchema>;
export type OperationsMethod = z.infer<typeof OperationsMethodSchema>;
