import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { ROLES } from '../../../../shared/roles';
import { RoleInputSchema } from '../../../../shared/schemas/roles';
import type { User } from '../../../../shared/schemas/users';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Field } from '../../../components/ui/field';
import { SelectBox } from '../../../components/ui/select-box';
import { usePanel } from '../../../components/ui/side-panel';
import { TableSkeleton } from '../../../components/ui/table-skeleton';
import { useToast } from '../../../components/ui/toaster';
import { errorText } from '../../../lib/api-error';
import { useUserRoleChanges } from '../api/change-user-roles';
import { useUserRoles } from '../api/get-user-roles';
import '../../../components/ui/table.css';
import './roles.css';

/** Removal asks first, naming the role and the user (spec §6). */
const removeRoleQuestion = (role: string, user: User) =>
  `Are you sure you want to remove the role ${role} from the user ${user.email}?`;

/**
 * A user's Roles, sorted alphabetically (spec §2): Add Role opens the role editor; each role
 * can be removed after a confirmation.
 */
export function UserRoles({ user }: { user: User }) {
  const roles = useUserRoles(user.id);
  const { remove } = useUserRoleChanges(user.id);
  const panel = usePanel();
  const toast = useToast();
  const [removing, setRemoving] = useState<string | null>(null);

  return (
    <section className="stack-sm" aria-labelledby="user-roles-title">
      <div className="section-header">
        <h2 id="user-roles-title" className="section-title">
          Roles
        </h2>
        <Button
          variant="primary"
          size="sm"
          onClick={() =>
            panel.showPanel(<RoleEditor userId={user.id} />, {
              title: 'Add Role',
            })
          }
        >
          Add Role
        </Button>
      </div>
      {remove.error ? (
        <Alert tone="danger">{errorText(remove.error)}</Alert>
      ) : null}
      {roles.isPending ? (
        <TableSkeleton label="Loading the user's roles" rows={3} />
      ) : roles.isError ? (
        <Alert tone="danger">{errorText(roles.error)}</Alert>
      ) : roles.data.length === 0 ? (
        <div className="card empty-state">
          <p className="empty-text">This user holds no roles.</p>
        </div>
      ) : (
        <ul className="card role-list" aria-label="Roles">
          {roles.data.map(({ id, role }) => (
            <li key={id} className="role-item">
              <span className="mono">{role}</span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove ${role}`}
                pending={remove.isPending && remove.variables === role}
                onClick={() => setRemoving(role)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        destructive
        text={removing ? removeRoleQuestion(removing, user) : ''}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          const role = removing;
          setRemoving(null);
          remove.mutate(role, {
            onSuccess: () =>
              toast.show(`The role ${role} has been removed`, {
                tone: 'success',
              }),
          });
        }}
      />
    </section>
  );
}

/**
 * The role editor: a role picked from the catalogue of spec §6 or typed. The shared schema
 * refuses an empty or unknown role with 'Invalid role' and nothing is sent (spec §5).
 */
function RoleEditor({ userId }: { userId: string }) {
  const { add } = useUserRoleChanges(userId);
  const held = useUserRoles(userId);
  const panel = usePanel();
  const toast = useToast();
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<z.input<typeof RoleInputSchema>>({
    resolver: zodResolver(RoleInputSchema),
    defaultValues: { role: '' },
    // The alert answers a press of Add Role; typing does not change it.
    reValidateMode: 'onSubmit',
  });
  const role = useWatch({ control, name: 'role' });

  const heldNames = new Set(held.data?.map((userRole) => userRole.role));
  const catalogue = [
    { key: '', text: 'Choose a role…' },
    ...ROLES.filter((name) => !heldNames.has(name)).map((name) => ({
      key: name,
      text: name,
    })),
  ];

  const onSubmit = handleSubmit(({ role: name }) =>
    add.mutate(name, {
      onSuccess: () => {
        panel.closePanel();
        toast.show(`The role ${name} has been added`, { tone: 'success' });
      },
    }),
  );

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      {errors.role ? <Alert tone="danger">{errors.role.message}</Alert> : null}
      {add.error ? <Alert tone="danger">{errorText(add.error)}</Alert> : null}
      <SelectBox
        label="Pick a role"
        options={catalogue}
        value={catalogue.some((option) => option.key === role) ? role : ''}
        onChange={(picked) => setValue('role', picked)}
      />
      <Field
        label="Role"
        hint="The role picked above, or type its name, e.g. ROLE_CLIENT_LIST."
        inputProps={{
          ...register('role'),
          autoComplete: 'off',
          spellCheck: false,
          autoCapitalize: 'characters',
          className: 'mono',
        }}
      />
      <div className="form-actions-inline">
        <Button type="submit" variant="primary" pending={add.isPending}>
          Add Role
        </Button>
        <Button onClick={panel.closePanel} disabled={add.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
