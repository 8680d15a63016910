import { SectionPendingPage } from '../SectionPendingPage';

export default function VersionsPage() {
  return <SectionPendingPage section="admin.nav.versions" />;
}
