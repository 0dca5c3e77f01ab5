import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { ButtonLink } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/spinner';
import { paths } from '../../config/paths';
import { defaultBalanceQueryOptions } from '../../features/balances/api/get-default-balance';
import { useBranding } from '../../features/branding/api/get-branding';
import { ConversationThread } from '../../features/conversations/components/conversation-thread';
import { ReplyBox } from '../../features/messages/components/reply-box';
import { useClientNumbers } from '../../features/numbers/api/get-client-numbers';
import { isValidRecipient } from '../../../shared/recipient';
import { formatPhoneNumber } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { useCurrentClient } from '../current-client';
import { NoClientCard } from './no-client-card';

/** Why the reply box is off for a number that opted out (CONTRACT: sends to it answer 403). */
export const optedOutText = (number: string) =>
  `${formatPhoneNumber(number)} has opted out of your messages: replies are refused until it sends START (or, if you added the opt-out, until you remove it under Opt-outs).`;

/** A sender that wrote under a name (alphanumeric) or a short code cannot be sent to. */
export const notReachableText = (number: string) =>
  `Replies cannot be sent to ${formatPhoneNumber(number)}: messages go to phone numbers of 6 to 15 digits.`;

/** What a conversation's path may name: a remote number, or a sender's name (CONTRACT). */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const REMOTE = /^[^\u0000-\u001f\u007f]{1,32}$/;

/**
 * /messaging/inbox/{number}: the conversation with one number, and the reply box under it,
 * sending from the client's own number when it holds one (issue 32).
 */
export function MessagingConversationRoute() {
  const { number = '' } = useParams();
  const { currentClient } = useCurrentClient();
  const shown = formatPhoneNumber(number);
  return (
    <>
      <PageHeader
        title={shown}
        description="Messages received from this number and sent to it, oldest first."
        actions={<ButtonLink to={paths.inbox}>Back to Inbox</ButtonLink>}
      />
      {!currentClient ? (
        <NoClientCard text="You need a client to receive messages." />
      ) : REMOTE.test(number) ? (
        <Conversation
          key={`${currentClient.id}/${number}`}
          clientId={currentClient.id}
          number={number}
        />
      ) : (
        <Alert tone="danger">
          {`“${number}” is not a number a conversation can be with.`}
        </Alert>
      )}
    </>
  );
}

function Conversation({
  clientId,
  number,
}: {
  clientId: string;
  number: string;
}) {
  const queryClient = useQueryClient();
  const branding = useBranding();
  const numbers = useClientNumbers(clientId);
  const refresh = (keys: readonly (readonly unknown[])[]) => {
    for (const queryKey of keys) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };
  // The client's own numbers, so the reply comes from the number they wrote to; without one
  // (or if the list cannot be read) the provider's name, as the Send SMS form sends.
  const senders = numbers.data?.length
    ? numbers.data.map((held) => held.number)
    : branding.data
      ? [branding.data.providerShortName]
      : [];
  const ready = !numbers.isPending && senders.length > 0;

  return (
    <ConversationThread
      clientId={clientId}
      number={number}
      reply={(thread) =>
        ready ? (
          <ReplyBox
            clientId={clientId}
            recipient={number}
            senders={senders}
            refusal={
              thread.optedOut
                ? optedOutText(number)
                : isValidRecipient(number)
                  ? null
                  : notReachableText(number)
            }
            onSent={() =>
              refresh([
                queryKeys.conversations.ofClient(clientId),
                queryKeys.messages.ofClient(clientId),
                defaultBalanceQueryOptions(clientId).queryKey,
              ])
            }
            onRefused={() =>
              refresh([queryKeys.conversations.ofClient(clientId)])
            }
          />
        ) : (
          <Skeleton height="180px" />
        )
      }
    />
  );
}
