import { SectionPendingPage } from '../SectionPendingPage';

export default function FilesPage() {
  return <SectionPendingPage section="admin.nav.files" />;
}
