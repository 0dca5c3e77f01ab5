import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type FieldErrors,
  type UseFormRegister,
} from 'react-hook-form';
import {
  UpdateUserSchema,
  type UpdateUserInput,
} from '../../../shared/schemas/users';
import { useServerError, type FieldLabels } from '../../lib/server-errors';
import { Field } from '../ui/field';
import { EmailField } from './credential-fields';
import '../ui/field.css';

/** The profile's fields as the form labels them (spec §2). */
const PROFILE_LABELS = {
  firstName: 'First Name',
  lastName: 'Last Name',
  organization: 'Organization',
  email: 'Email',
} satisfies FieldLabels<UpdateUserInput>;

/**
 * The profile form of its user or an admin: starts from the stored profile, checks it with the
 * shared schema, and shows the save call's failure (`error`) in the form's words, under the
 * field it names (`serverError` is the rest, for the form's alert).
 */
export function useProfileForm(user: UpdateUserInput, error: unknown) {
  const form = useForm<UpdateUserInput>({
    resolver: zodResolver(UpdateUserSchema),
    defaultValues: profileValues(user),
  });
  const serverError = useServerError(form, error, PROFILE_LABELS);
  return { form, serverError };
}

/** First Name, Last Name, Organization and Email: the profile, edited by its user or an admin. */
export function ProfileFields({
  register,
  errors,
}: {
  register: UseFormRegister<UpdateUserInput>;
  errors: FieldErrors<UpdateUserInput>;
}) {
  return (
    <>
      <div className="field-row">
        <Field
          label={PROFILE_LABELS.firstName}
          error={errors.firstName?.message ?? ''}
          inputProps={{ ...register('firstName'), autoComplete: 'given-name' }}
        />
        <Field
          label={PROFILE_LABELS.lastName}
          error={errors.lastName?.message ?? ''}
          inputProps={{ ...register('lastName'), autoComplete: 'family-name' }}
        />
      </div>
      <Field
        label={PROFILE_LABELS.organization}
        error={errors.organization?.message ?? ''}
        inputProps={{
          ...register('organization'),
          autoComplete: 'organization',
        }}
      />
      <EmailField
        field={register('email')}
        autoComplete="email"
        error={errors.email?.message ?? ''}
      />
    </>
  );
}

/** The form's starting values: the profile as stored. */
export function profileValues(user: UpdateUserInput): UpdateUserInput {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    organization: user.organization,
    email: user.email,
  };
}
