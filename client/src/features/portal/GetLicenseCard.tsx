import { Button, Card, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFlask, IconShoppingCart, type TablerIcon } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { PublicSettingsDto } from '../../api/generated/model';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatMoney } from '../../i18n/format';
import type { MessageId } from '../../i18n/message-id';

interface GetLicenseCardProps {
  settings: PublicSettingsDto | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  onRequestTest: () => void;
  onPurchase: () => void;
}

interface TileProps {
  color: 'violet' | 'blue';
  icon: TablerIcon;
  title: MessageId;
  description: string;
  /** What the license gives, or costs. */
  terms: ReactNode;
  button: ReactNode;
  testId: string;
}

/** One way to a license: what it is, its terms, and the button that asks for it. */
function Tile({ color, icon: Icon, title, description, terms, button, testId }: TileProps) {
  return (
    <Card withBorder radius="md" p="md" bg={`var(--mantine-color-${color}-0)`} data-testid={testId}>
      <Stack gap="xs" h="100%">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color={color} size="lg" radius="md">
            <Icon size={20} aria-hidden />
          </ThemeIcon>
          <Title order={3} fz="md">
            <FormattedMessage id={title} />
          </Title>
        </Group>
        <Text fz="sm">{description}</Text>
        <Text fz="sm" fw={600}>
          {terms}
        </Text>
        {button}
      </Stack>
    </Card>
  );
}

/** Get License: the Test License tile (only when enabled) and the Purchase License tile with the server's price. */
export function GetLicenseCard({ settings, loading, error, onRetry, onRequestTest, onPurchase }: GetLicenseCardProps) {
  const intl = useIntl();
  const testEnabled = !!settings?.test_license.enabled;
  const purchaseEnabled = !!settings?.features.purchase_license_enabled;
  return (
    <Card withBorder radius="md" p="lg" component="section" aria-labelledby="get-license-title">
      <Title order={2} fz="xl" id="get-license-title">
        <FormattedMessage id="dashboard.getLicense.title" />
      </Title>
      <Text c="dimmed" fz="sm" mb="md">
        <FormattedMessage id="dashboard.getLicense.subtitle" />
      </Text>
      {loading ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : error || !settings ? (
        <ErrorAlert onRetry={onRetry}>{intl.formatMessage({ id: 'dashboard.errors.load' }, { message: error?.message ?? '' })}</ErrorAlert>
      ) : !testEnabled && !purchaseEnabled ? (
        <Text fz="sm" c="dimmed" data-testid="get-license-none">
          <FormattedMessage id="dashboard.getLicense.none" />
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: testEnabled && purchaseEnabled ? 2 : 1 }}>
          {testEnabled && (
            <Tile
              color="violet"
              icon={IconFlask}
              title="dashboard.getLicense.test.title"
              description={settings.test_license.description}
              terms={
                <FormattedMessage
                  id="dashboard.getLicense.test.terms"
                  values={{ days: settings.test_license.duration_days, devices: settings.test_license.max_devices }}
                />
              }
              button={
                <Button mt="auto" variant="light" color="violet" onClick={onRequestTest}>
                  <FormattedMessage id="dashboard.getLicense.test.button" />
                </Button>
              }
              testId="test-license-tile"
            />
          )}
          {purchaseEnabled && (
            <Tile
              color="blue"
              icon={IconShoppingCart}
              title="dashboard.getLicense.purchase.title"
              description={settings.pricing.description}
              terms={
                <span data-testid="price-per-device">
                  <FormattedMessage
                    id="dashboard.getLicense.purchase.price"
                    values={{ price: formatMoney(intl, settings.pricing.price_per_device, settings.pricing.currency) }}
                  />
                </span>
              }
              button={
                <Button mt="auto" onClick={onPurchase}>
                  <FormattedMessage id="dashboard.getLicense.purchase.button" />
                </Button>
              }
              testId="purchase-tile"
            />
          )}
        </SimpleGrid>
      )}
    </Card>
  );
}
