import { AdminShell } from '../../components/layouts/AdminShell';
import { ProfileScreen } from './ProfileScreen';

/** /secret-admin/profile: the admin's own account, inside the admin shell (opened from its user menu). */
export default function AdminProfilePage() {
  return (
    <AdminShell>
      <ProfileScreen />
    </AdminShell>
  );
}
