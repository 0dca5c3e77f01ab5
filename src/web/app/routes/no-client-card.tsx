import { ButtonLink } from '../../components/ui/button';
import { paths } from '../../config/paths';

/** In place of a screen that works on the current client, before the user has one. */
export function NoClientCard({ text }: { text: string }) {
  return (
    <div className="card stack-sm">
      <p>{text}</p>
      <div>
        <ButtonLink to={paths.quickstart} variant="primary">
          Go to Quick Start
        </ButtonLink>
      </div>
    </div>
  );
}
