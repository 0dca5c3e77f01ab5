import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { useDownloadOptoutsCsv } from '../api/optouts-csv';

/** Downloads every opt-out of the client as optouts.csv. */
export function OptoutsCsvButton({ clientId }: { clientId: string }) {
  const download = useDownloadOptoutsCsv();
  const toast = useToast();
  return (
    <Button
      pending={download.isPending}
      onClick={() =>
        download.mutate(clientId, {
          onError: (error) =>
            toast.show(`The CSV could not be downloaded. ${errorText(error)}`, {
              tone: 'danger',
            }),
        })
      }
    >
      Download CSV
    </Button>
  );
}
