import { z } from 'zod';
import { isKnownRole } from '../roles.ts';
import { IdSchema } from './common.ts';

export const UserRoleSchema = z
  .object({ id: IdSchema, role: z.string() })
  .meta({ id: 'UserRole' });
export type UserRole = z.infer<typeof UserRoleSchema>;

export const RoleInputSchema = z.object({
  role: z
    .string({ message: 'Invalid role' })
    .refine((role) => role.isWellFormed(), {
      message: 'Role must be valid Unicode text',
      abort: true,
    })
    .trim()
    .refine(isKnownRole, 'Invalid role'),
});

export const UserRoleListSchema = z.object({ roles: z.array(UserRoleSchema) });
