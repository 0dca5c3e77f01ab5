import { useMatch } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { paths } from '../../config/paths';
import '../../components/ui/page-header.css';
import './not-found.css';

/** Any unknown route inside a shell (spec §2); the button goes to that shell's home. */
export function NotFoundRoute() {
  const inAdmin = useMatch(`${paths.admin}/*`) !== null;
  return (
    <div className="not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1 className="page-title">Page Not Found</h1>
      <p className="muted">
        The page you are looking for does not exist or has moved.
      </p>
      <ButtonLink to={inAdmin ? paths.admin : paths.home} variant="primary">
        Go to the home page
      </ButtonLink>
    </div>
  );
}
