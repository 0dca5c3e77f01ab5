import { AuthLayout } from '../../components/layouts/shell-layout';
import { LoginForm } from '../../features/auth/components/login-form';
import {
  PoweredBy,
  ProductName,
} from '../../features/branding/components/branding';

export function LoginRoute() {
  return (
    <AuthLayout footer={<PoweredBy />}>
      <LoginForm productName={<ProductName />} />
    </AuthLayout>
  );
}
