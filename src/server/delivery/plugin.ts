import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import {
  startDelivery,
  type Delivery,
  type DeliveryOptions,
  type DeliveryTuning,
} from './engine.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The delivery queue and workers of this node (tests race failures and duplicate jobs). */
    delivery: Delivery;
  }
}

export interface DeliveryPluginOptions {
  config: Config;
  wake: DeliveryOptions['wake'];
  receipts: DeliveryOptions['receipts'];
  /** The one inbound writer, for the SMPP bind's inbound messages. */
  inbound?: DeliveryOptions['inbound'];
  /** Told of submits, bind changes and callback outcomes (the node's metrics). */
  observer?: DeliveryOptions['observer'];
  /** Tests shorten delivery's timers; production never passes it. */
  tuning: DeliveryTuning;
}

/**
 * Starts this node's delivery (the queue, and the workers when DELIVERY_WORKERS > 0) and stops
 * it when the app closes: pending submits go back to the queue and the last outcomes are
 * written before the plugins registered earlier (services, then the database) close.
 */
export const delivery = fp<DeliveryPluginOptions>(
  async (app, { config, wake, receipts, inbound, observer, tuning }) => {
    const started = await startDelivery({
      config: config.delivery,
      databaseUrl: config.databaseUrl,
      db: app.db,
      logger: app.log,
      wake,
      receipts,
      inbound,
      observer,
      ...tuning,
    });
    app.decorate('delivery', started);
    app.addHook('onClose', () => started.stop());
  },
  { name: 'delivery', dependencies: ['database'] },
);
