import { AuthLayout } from '../../components/layouts/shell-layout';
import { RegisterForm } from '../../features/auth/components/register-form';
import {
  PoweredBy,
  ProductName,
} from '../../features/branding/components/branding';

export function RegisterRoute() {
  return (
    <AuthLayout footer={<PoweredBy />}>
      <RegisterForm productName={<ProductName />} />
    </AuthLayout>
  );
}
