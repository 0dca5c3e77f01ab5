/**
 * Keyword auto-replies (CONTRACT "Two-way messaging": Opt-outs): each inbound STOP, START or HELP
 * is answered from the number it was sent to, with OPT_OUT_REPLY, OPT_IN_REPLY, or the number's
 * helpText (else HELP_REPLY). The job is queued by the inbound write itself
 * (inbound_messages_keywords, migrations/functions/), so a reply survives a kill -9 after that
 * commit, and any node with delivery workers answers it.
 *
 * A reply is a send like any other: priced, charged and throttled by send_sms_batch (the send
 * path's one statement), in the client's message log, delivered through its routing. None when
 * the balance cannot pay, the destination is closed or the sender or recipient cannot be sent
 * to: the job completes, nothing else breaks. It names the inbound message it answers
 * (`replyTo`), which lets it reach a recipient who just opted out (the answer to STOP is the one
 * message that may) and makes it once per inbound message however often the job runs (a unique
 * index on messages.reply_to).
 */
import type { Job, PgBoss } from 'pg-boss';
import { cleanRecipient, isValidRecipient } from '../../shared/recipient.ts';
import { countSms, isValidSender } from '../../shared/sms.ts';
import type { Db } from '../db/client.ts';
import { WORKER_POLL_SECONDS } from '../delivery/alarm.ts';
import { KEYWORD_REPLY_QUEUE } from '../delivery/queue.ts';
import type { DeliveryLogger, DeliveryObserver } from '../delivery/types.ts';
import type { Waker } from '../delivery/waker.ts';

/** What inbound_messages_keywords queues for each keyword message. */
export interface KeywordReplyJob {
  inboundId: string;
  clientId: string;
  keyword: 'STOP' | 'START' | 'HELP';
  /** This STOP opted its sender out now (a new row, or an api one became keyword). */
  optedOut: boolean;
  /** Scheduled messages to the sender this STOP cancelled and refunded. */
  canceled: number;
}

/** OPT_OUT_REPLY, OPT_IN_REPLY, HELP_REPLY. */
export interface KeywordReplyTexts {
  optOut: string;
  optIn: string;
  help: string;
}

export interface KeywordReplyOptions {
  boss: PgBoss;
  db: Db;
  logger: DeliveryLogger;
  texts: KeywordReplyTexts;
  /** SMS_PRICE as decimal text: the price where no price list entry matches. */
  defaultPrice: string;
  /** Counts what the send path counts, and wakes this node's delivery workers after a reply. */
  wake: Waker;
  observer: DeliveryObserver;
  /** A job will run again in `seconds` (its retry): the queue alarm looks then. */
  later(seconds: number): void;
}

export interface KeywordReplyWorker {
  wake(): void;
  stop(): Promise<void>;
}

/** Jobs fetched at once; each is one small send. */
const BATCH = 16;

/** What the reply worker did with one job. */
export type ReplyOutcome =
  | 'sent'
  | 'replied-already'
  | 'no-balance'
  | 'refused'
  | 'throttled'
  | 'not-sendable'
  | 'gone';

interface InboundRow {
  client_id: string;
  user_id: string;
  from_number: string;
  to_number: string;
  keyword: 'STOP' | 'START' | 'HELP';
  help_text: string | null;
}

/** The text answering `keyword` (a number's own help text, when it has one, for HELP). */
export function replyText(
  texts: KeywordReplyTexts,
  keyword: 'STOP' | 'START' | 'HELP',
  helpText: string | null,
): string {
  if (keyword === 'STOP') return texts.optOut;
  if (keyword === 'START') return texts.optIn;
  return helpText?.trim() ? helpText : texts.help;
}

/** Sends the reply to one keyword message, once. */
export async function sendKeywordReply(
  options: Pick<KeywordReplyOptions, 'db' | 'texts' | 'defaultPrice'>,
  inboundId: string,
): Promise<ReplyOutcome> {
  const { db } = options;
  const [row] = await db.query<InboundRow>(
    `SELECT i.client_id, c.user_id, i.from_number, i.to_number, i.keyword, n.help_text
     FROM inbound_messages i
     JOIN clients c ON c.id = i.client_id
     LEFT JOIN numbers n ON n.number = i.to_number AND n.client_id = i.client_id
     WHERE i.id = $1 AND i.keyword IS NOT NULL`,
    [inboundId],
  );
  // The client was deleted since: nobody to answer for.
  if (!row) return 'gone';
  // Cleaned as a send's recipient (a leading 00 dropped), as the opt-out row was.
  const recipient = cleanRecipient(row.from_number);
  // An alphanumeric sender cannot be answered; our number is a sender by its digits.
  if (!isValidRecipient(recipient) || !isValidSender(row.to_number)) {
    return 'not-sendable';
  }
  const body = replyText(options.texts, row.keyword, row.help_text);
  const { encoding, segments } = countSms(body);
  const [answer] = await db.query<{ refusal: string | null }>(
    'SELECT refusal FROM send_sms_batch($1::jsonb)',
    [
      JSON.stringify([
        {
          clientId: row.client_id,
          ownerId: row.user_id,
          defaultPrice: options.defaultPrice,
          sender: row.to_number,
          recipient,
          body,
          reference: `keyword-reply:${row.keyword}`,
          encoding,
          segments,
          actorUserId: null,
          key: null,
          hash: null,
          sendAt: null,
          replyTo: inboundId,
        },
      ]),
    ],
  );
  switch (answer?.refusal ?? null) {
    case null:
      return 'sent';
    case 'replied':
      return 'replied-already';
    case 'no-balance':
      return 'no-balance';
    case 'throttled':
      return 'throttled';
    default:
      // no-client (deleted meanwhile), blocked or not-allowed: nothing to send.
      return 'refused';
  }
}

/** Starts this node's keyword reply worker (nodes with delivery workers). */
export function startKeywordReplyWorker(
  options: KeywordReplyOptions,
): KeywordReplyWorker {
  const { boss, logger } = options;
  let stopping = false;
  let wake: (() => void) | null = null;
  let wokenWhileBusy = false;

  async function run(job: Job<KeywordReplyJob>): Promise<void> {
    const attempt = { id: job.id, retryCount: job.retryCount };
    try {
      const outcome = await sendKeywordReply(options, job.data.inboundId);
      if (outcome === 'throttled') {
        // The client is at its messages a second: the queue's backoff tries again.
        options.later(2);
        await boss.fail(KEYWORD_REPLY_QUEUE, attempt, {
          message: 'client beyond its messages a second',
        });
        return;
      }
      if (outcome === 'sent') options.wake.wake();
      else if (outcome !== 'replied-already') {
        logger.info(
          { inboundId: job.data.inboundId, outcome },
          'keyword auto-reply not sent',
        );
      }
      // The STOP's own counts, once its job is done (this node's counters; the job runs to
      // completion once, short of a crash between the send and this line).
      if (outcome !== 'replied-already') {
        if (job.data.optedOut) options.observer.optOuts?.('keyword', 1);
        if (job.data.canceled > 0) {
          options.wake.count('CANCELED', job.data.canceled);
        }
      }
      await boss.complete(KEYWORD_REPLY_QUEUE, attempt);
    } catch (err) {
      logger.error(
        { err, inboundId: job.data.inboundId },
        'keyword auto-reply job failed',
      );
      options.later(2);
      await boss
        .fail(KEYWORD_REPLY_QUEUE, attempt, { message: String(err) })
        .catch((failErr: unknown) =>
          logger.error(
            { err: failErr },
            'keyword auto-reply job not handed back (it expires)',
          ),
        );
    }
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      let fetched = 0;
      try {
        const jobs = await boss.fetch<KeywordReplyJob>(KEYWORD_REPLY_QUEUE, {
          batchSize: BATCH,
        });
        fetched = jobs.length;
        // One at a time: a client's replies keep their order and its throttle counts each.
        for (const job of jobs) await run(job);
      } catch (err) {
        if (stopping) break;
        logger.error({ err }, 'keyword auto-reply fetch failed');
      }
      if (stopping) break;
      if (fetched === BATCH) continue;
      await pause(WORKER_POLL_SECONDS * 1000);
    }
  }

  function pause(ms: number): Promise<void> {
    if (wokenWhileBusy) {
      wokenWhileBusy = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  }

  const looping = loop();
  return {
    wake() {
      if (wake) wake();
      else wokenWhileBusy = true;
    },
    async stop() {
      stopping = true;
      wake?.();
      await looping;
    },
  };
}
