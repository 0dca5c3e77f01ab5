import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { canCall, roleChangeRefusal, ROLES } from '../../../../shared/roles';
import { RoleInputSchema } from '../../../../shared/schemas/roles';
import type { User } from '../../../../shared/schemas/users';
import { Alert } from '../../../components/ui/alert';
import { FormActions } from '../../../components/ui/form-actions';
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
import '../../../components/ui/field.css';

/** Removal asks first, naming the role and the user (spec §6). */
const removeRoleQuestion = (role: string, user: User) =>
  `Are you sure you want to remove the role ${role} from the user ${user.email}?`;

/**
 * Who is changing the roles: the signed-in user. The route passes it down (features never
 * import each other) so the editor offers only what the server would accept (issue 9).
 */
export interface RoleCaller {
  id: string;
  roles: readonly string[];
}

/**
 * Why the caller may not grant or remove `role` for this user, or null when they may: the
 * server's own rule (src/shared/roles.ts). A refused call would answer 403, which logs the
 * user out (spec §6), so the console never sends one it knows is refused.
 */
function refusalFor(caller: RoleCaller, userId: string) {
  const ownRoles = caller.id === userId;
  return (role: string) => roleChangeRefusal(caller.roles, { role, ownRoles });
}

/**
 * A user's Roles, sorted alphabetically (spec §2): Add Role opens the role editor; each role
 * can be removed after a confirmation. Roles the caller may not remove keep a disabled Remove
 * whose description says why; editing one's own roles without ROLE_USERROLE_ADMIN is refused
 * altogether, which a note says.
 */
export function UserRoles({
  user,
  caller,
}: {
  user: User;
  caller: RoleCaller;
}) {
  const roles = useUserRoles(user.id);
  const { remove } = useUserRoleChanges(user.id);
  const panel = usePanel();
  const toast = useToast();
  const [removing, setRemoving] = useState<string | null>(null);
  const noteId = useId();

  // Adding and removing are separate calls with their own roles (USERROLE CREATE, DELETE).
  const canAdd = canCall(caller.roles, 'USERROLE', 'CREATE');
  const canRemove = canCall(caller.roles, 'USERROLE', 'DELETE');
  const refusal = refusalFor(caller, user.id);
  // Own roles are refused whatever the role is, so any name asks the rule.
  const ownRefusal = caller.id === user.id ? refusal('') : null;
  // Otherwise the one reason left is a held role the caller does not hold.
  const heldRefusal =
    (roles.data ?? [])
      .map(({ role }) => refusal(role))
      .find((text) => text !== null) ?? null;

  return (
    <section className="stack-sm" aria-labelledby="user-roles-title">
      <div className="section-header">
        <h2 id="user-roles-title" className="section-title">
          Roles
        </h2>
        <Button
          variant="primary"
          size="sm"
          hidden={!canAdd}
          disabled={ownRefusal !== null}
          aria-describedby={ownRefusal ? noteId : undefined}
          onClick={() =>
            panel.showPanel(<RoleEditor userId={user.id} caller={caller} />, {
              title: 'Add Role',
            })
          }
        >
          Add Role
        </Button>
      </div>
      {ownRefusal ? (
        <p id={noteId} className="role-note">
          These are your own roles. {ownRefusal}.
        </p>
      ) : null}
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
          {roles.data.map(({ id, role }) => {
            const refused = refusal(role);
            return (
              <li key={id} className="role-item">
                <span className="mono">{role}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  hidden={!canRemove}
                  aria-label={`Remove ${role}`}
                  disabled={refused !== null}
                  title={refused ?? undefined}
                  aria-describedby={refused ? noteId : undefined}
                  pending={remove.isPending && remove.variables === role}
                  onClick={() => setRemoving(role)}
                >
                  Remove
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {heldRefusal && !ownRefusal ? (
        <p id={noteId} className="role-note">
          {heldRefusal}.
        </p>
      ) : null}
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
 * refuses an empty or unknown role with 'Invalid role' and nothing is sent (spec §5). The
 * picker offers only the roles the caller may grant, and a typed one the caller may not grant
 * is refused here with the server's words, before any call.
 */
function RoleEditor({
  userId,
  caller,
}: {
  userId: string;
  caller: RoleCaller;
}) {
  const { add } = useUserRoleChanges(userId);
  const held = useUserRoles(userId);
  const panel = usePanel();
  const toast = useToast();
  const refusal = refusalFor(caller, userId);
  const schema = useMemo(() => {
    const refuse = refusalFor(caller, userId);
    return RoleInputSchema.superRefine(({ role: name }, ctx) => {
      const refused = refuse(name);
      if (refused)
        ctx.addIssue({ code: 'custom', message: refused, path: ['role'] });
    });
  }, [caller, userId]);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<z.input<typeof RoleInputSchema>>({
    resolver: zodResolver(schema),
    defaultValues: { role: '' },
    // The alert answers a press of Add Role; typing does not change it.
    reValidateMode: 'onSubmit',
  });
  const role = useWatch({ control, name: 'role' });

  const heldNames = new Set(held.data?.map((userRole) => userRole.role));
  const catalogue = [
    { key: '', text: 'Choose a role…' },
    ...ROLES.filter(
      (name) => !heldNames.has(name) && refusal(name) === null,
    ).map((name) => ({
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
      <FormActions
        submit="Add Role"
        pending={add.isPending}
        onCancel={panel.closePanel}
      />
    </form>
  );
}
