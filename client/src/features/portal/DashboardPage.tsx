import { Button, Card, Center, Container, Loader, Stack } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { useLicenseOptions, useListLicenseProducts } from '../../api/generated/endpoints/licenses/licenses';
import { useGetPublicSettings } from '../../api/generated/endpoints/settings/settings';
import { useAuth } from '../../lib/auth/auth-context';
import { paths } from '../../lib/paths';
import { PortalShell } from '../../components/layouts/PortalShell';
import { ErrorAlert } from '../../components/ErrorAlert';
import { AvailableDownloads } from './AvailableDownloads';
import { GetLicenseCard } from './GetLicenseCard';
import { commandCopied, licenseDownloaded, licensePurchased, testLicenseCreated } from './license-success';
import { MyDevices } from './MyDevices';
import { MyLicenses } from './MyLicenses';
import { ProductOptions } from './ProductSelect';
import { PurchaseLicenseModal } from './PurchaseLicenseModal';
import { SuccessContent, SuccessDialog } from './SuccessDialog';
import { TestLicenseModal } from './TestLicenseModal';
import { TestScriptCommand } from './TestScriptCommand';
import { MessageText, MessageTitle } from '../../components/Message';

/** 'Access Denied' when there is no session to restore. */
function AccessDenied() {
  return (
    <Center mih="100vh" p="md">
      <Card withBorder radius="md" p="xl" maw={420} ta="center" data-testid="access-denied">
        <Stack align="center" gap="sm">
          <IconLock size={40} color="var(--mantine-color-red-6)" aria-hidden />
          <MessageTitle order={1} fz="h2" message="dashboard.accessDenied.title" />
          <MessageText c="dimmed" message="dashboard.accessDenied.text" />
          <Button component={Link} to={paths.login}>
            <FormattedMessage id="dashboard.accessDenied.login" />
          </Button>
        </Stack>
      </Card>
    </Center>
  );
}

function Dashboard() {
  const { user } = useAuth();
  const settings = useGetPublicSettings();
  const [modal, setModal] = useState<'test' | 'purchase' | null>(null);
  const [success, setSuccess] = useState<SuccessContent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const config = settings.data?.data;
  // What the Get License tiles may offer this client (no release yet, the test license used…), asked again after a license.
  const options = useLicenseOptions();

  // The server's product names (one per version, latest first), read when a license dialog opens.
  const productList = useListLicenseProducts({ query: { enabled: modal !== null } });
  const products: ProductOptions = {
    choices: productList.data?.data ?? [],
    loading: productList.isPending && !productList.error,
    error: productList.error,
    retry: () => void productList.refetch(),
  };

  const showError = (message: string) => {
    setSuccess(null);
    setError(message);
  };

  return (
    <Container size="lg" py="md" px={0}>
      <Stack gap="lg">
        <Card withBorder radius="md" p="xl">
          <MessageTitle order={1} fz="h2" message="dashboard.greeting" values={{ name: user?.first_name || user?.email }} />
          <MessageText c="dimmed" mt="xs" message="dashboard.intro" />
        </Card>

        {error && (
          <div data-testid="dashboard-error">
            <ErrorAlert onClose={() => setError(null)}>{error}</ErrorAlert>
          </div>
        )}

        <AvailableDownloads onSuccess={setSuccess} onError={showError} />
        {/* The spec's second command (the test script) belongs with the downloads. */}
        <TestScriptCommand onCopied={() => setSuccess(commandCopied())} onError={showError} />

        <GetLicenseCard
          settings={config}
          options={options.data?.data}
          loading={settings.isLoading}
          error={settings.error}
          onRetry={() => settings.refetch()}
          onRequestTest={() => setModal('test')}
          onPurchase={() => setModal('purchase')}
        />
        <MyLicenses onDownloaded={() => setSuccess(licenseDownloaded())} onError={showError} />
        <MyDevices onError={showError} />
      </Stack>

      {config && modal === 'test' && (
        <TestLicenseModal
          onClose={() => setModal(null)}
          products={products}
          testLicense={config.test_license}
          onCreated={(license) => {
            void options.refetch();
            setSuccess(testLicenseCreated(license));
          }}
        />
      )}
      {config && modal === 'purchase' && (
        <PurchaseLicenseModal
          onClose={() => setModal(null)}
          products={products}
          pricing={config.pricing}
          onPurchased={(result) => setSuccess(licensePurchased(result))}
        />
      )}
      <SuccessDialog content={success} onClose={() => setSuccess(null)} />
    </Container>
  );
}

/** The client dashboard (/dashboard) inside the portal shell. */
export default function DashboardPage() {
  const { status, user } = useAuth();
  if (status === 'loading') {
    return (
      <Center mih="100vh">
        <Loader />
      </Center>
    );
  }
  if (!user) return <AccessDenied />;
  return (
    <PortalShell>
      <ModalsProvider>
        <Dashboard />
      </ModalsProvider>
    </PortalShell>
  );
}
