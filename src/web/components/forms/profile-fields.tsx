import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { UpdateUserInput } from '../../../shared/schemas/users';
import { Field } from '../ui/field';
import '../ui/field.css';

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
