import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../limits.ts';
import {
  IdSchema,
  ListMetaSchema,
  nameText,
  text,
  TimestampSchema,
} from './common.ts';

// The e-mail pattern admits ASCII only, so it already refuses malformed text.
export const EmailSchema = z
  .email({ message: 'Invalid email' })
  .max(254, 'Email is too long');

export const PasswordSchema = text('Password')
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`);

/** A person's or organization's name, as shown across the console. */
const nameSchema = (label: string) =>
  nameText(label).trim().max(100, 'Name is too long');

export const UserSchema = z
  .object({
    id: IdSchema,
    firstName: z.string(),
    lastName: z.string(),
    organization: z.string(),
    email: z.string(),
    dateCreated: TimestampSchema,
    dateUpdated: TimestampSchema,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

/** The current user plus their roles, so the console can show admin entries. */
export const MyUserSchema = UserSchema.extend({
  roles: z.array(z.string()),
}).meta({ id: 'MyUser' });
export type MyUser = z.infer<typeof MyUserSchema>;

export const RegisterSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  firstName: nameSchema('First name').min(1, 'First name is required'),
  lastName: nameSchema('Last name').min(1, 'Last name is required'),
  organization: nameSchema('Organization').optional().default(''),
});
export type RegisterInput = z.input<typeof RegisterSchema>;

export const UpdateUserSchema = z.object({
  firstName: nameSchema('First name'),
  lastName: nameSchema('Last name'),
  organization: nameSchema('Organization').optional().default(''),
  email: EmailSchema,
});
export type UpdateUserInput = z.input<typeof UpdateUserSchema>;

export const ChangePasswordSchema = z.object({
  currentPassword: text('Current password')
    .min(1, 'Current password is required')
    .max(PASSWORD_MAX),
  newPassword: PasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordSchema>;

export const UserListSchema = ListMetaSchema.extend({
  users: z.array(UserSchema),
});
export type UserList = z.infer<typeof UserListSchema>;

// The Login form has no schema: it checks nothing (spec §5); the shell's first call checks it.

/**
 * The Register form: only the confirmation is checked here (spec §5); the other rules are the
 * server's, whose refusal the Login screen reports.
 */
export const RegisterFormSchema = z
  .object({
    email: z.string(),
    password: z.string(),
    confirmPassword: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    organization: z.string(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'Passwords do not match.',
    path: ['confirmPassword'],
  });
export type RegisterFormInput = z.infer<typeof RegisterFormSchema>;

/**
 * The Change Password form: new password and confirmation must be equal and not empty (spec §5);
 * the password rules are the server's, answered with 400.
 */
export const ChangePasswordFormSchema = z
  .object({
    currentPassword: z.string(),
    newPassword: z.string(),
    confirmPassword: z.string(),
  })
  .refine(
    (form) =>
      form.newPassword !== '' && form.newPassword === form.confirmPassword,
    {
      message: 'The new password and its confirmation differ.',
      path: ['confirmPassword'],
    },
  );
export type ChangePasswordFormInput = z.infer<typeof ChangePasswordFormSchema>;
