import { PortalShell } from '../../components/layouts/PortalShell';
import { ProfileScreen } from './ProfileScreen';

/** /dashboard/profile: the customer's own account, inside the client portal shell (opened from its user menu). */
export default function PortalProfilePage() {
  return (
    <PortalShell>
      <ProfileScreen />
    </PortalShell>
  );
}
