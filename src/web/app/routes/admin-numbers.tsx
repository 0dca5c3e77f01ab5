import { useNavigate, useSearchParams } from 'react-router';
import { offsetParam } from '../../components/ui/pager';
import { paths } from '../../config/paths';
import { AdminNumbers } from '../../features/numbers/components/admin-numbers';
import {
  numberFilterOf,
  numbersHref,
} from '../../features/numbers/number-filter';

/** /admin/numbers: inbound numbers and their clients, kept by holders of ROLE_NUMBER_ADMIN. */
export function AdminNumbersRoute() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  return (
    <AdminNumbers
      filter={numberFilterOf(search)}
      offset={offsetParam(search.get('offset'))}
      onFilter={(filter) =>
        void navigate(numbersHref(paths.adminNumbers, filter))
      }
    />
  );
}
