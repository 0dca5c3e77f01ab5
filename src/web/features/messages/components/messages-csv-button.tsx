import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { useDownloadMessagesCsv } from '../api/download-messages-csv';
import { useMessageLogParams } from './message-log';

/** Downloads the log as CSV with the filters currently in the URL. */
export function MessagesCsvButton({ clientId }: { clientId: string }) {
  const { filters } = useMessageLogParams();
  const download = useDownloadMessagesCsv();
  const toast = useToast();
  return (
    <Button
      pending={download.isPending}
      onClick={() =>
        download.mutate(
          { clientId, filters },
          {
            onError: (error) =>
              toast.show(
                `The CSV could not be downloaded. ${errorText(error)}`,
                {
                  tone: 'danger',
                },
              ),
          },
        )
      }
    >
      Download CSV
    </Button>
  );
}
