import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import {
  UpdateUserSchema,
  type MyUser,
  type UpdateUserInput,
} from '../../../../shared/schemas/users';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { useToast } from '../../../components/ui/toaster';
import { isApiError } from '../../../lib/api-error';
import { useUpdateMe } from '../api/update-me';

/** /users/me: 'Update My User' with a read-only User ID (spec §2). */
export function UpdateMyUserForm({ user }: { user: MyUser }) {
  const update = useUpdateMe();
  const toast = useToast();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<UpdateUserInput>({
    resolver: zodResolver(UpdateUserSchema),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      organization: user.organization,
      email: user.email,
    },
  });

  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () =>
        toast.show('Your user has been updated', { tone: 'success' }),
    }),
  );

  return (
    <form className="card stack" onSubmit={onSubmit} noValidate>
      <h2 className="section-title">Update My User</h2>
      {update.error ? (
        <Alert tone="danger">
          {isApiError(update.error)
            ? update.error.message
            : 'The server could not be reached. Please try again.'}
        </Alert>
      ) : null}
      <div className="field-row">
        <Field
          label="First Name"
          error={errors.firstName?.message ?? ''}
          inputProps={{ ...register('firstName'), autoComplete: 'given-name' }}
        />
        <Field
          label="Last Name"
          error={errors.lastName?.message ?? ''}
          inputProps={{ ...register('lastName'), autoComplete: 'family-name' }}
        />
      </div>
      <Field
        label="Organization"
        error={errors.organization?.message ?? ''}
        inputProps={{
          ...register('organization'),
          autoComplete: 'organization',
        }}
      />
      <Field
        label="Email"
        error={errors.email?.message ?? ''}
        inputProps={{
          ...register('email'),
          type: 'email',
          autoComplete: 'email',
          spellCheck: false,
        }}
      />
      <Field
        label="User ID"
        inputProps={{ readOnly: true, value: user.id, className: 'mono' }}
      />
      <div className="form-actions-inline">
        <Button type="submit" variant="primary" pending={update.isPending}>
          Update
        </Button>
      </div>
    </form>
  );
}
