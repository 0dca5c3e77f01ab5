import { PageHeader } from '../../components/ui/page-header';
import { Skeleton } from '../../components/ui/spinner';
import { useMe } from '../../features/users/api/get-me';
import { UpdateMyUserForm } from '../../features/users/components/update-my-user-form';

export function MyUserRoute() {
  const me = useMe();
  return (
    <div className="page-narrow">
      <PageHeader title="My User" />
      {me.data ? (
        <UpdateMyUserForm key={me.data.dateUpdated} user={me.data} />
      ) : (
        <Skeleton height="420px" />
      )}
    </div>
  );
}
