import { Button, Card, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconFlask, IconShoppingCart, type TablerIcon } from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { LicenseOptionDto, LicenseOptionsDto, PublicSettingsDto } from '../../api/generated/model';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatMoney } from '../../i18n/format';
import { localizeLicenseRefusal } from '../../lib/license-refusals';
import { MessageText, MessageTitle } from '../../components/Message';

interface GetLicenseCardProps {
  settings: PublicSettingsDto | undefined;
  /** Whether this client may take each kind now, with the server's reason where not (undefined while loading). */
  options: LicenseOptionsDto | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  onRequestTest: () => void;
  onPurchase: () => void;
}

/** Each way to a license: its colour, icon and test id. */
const TILES = {
  test: { color: 'violet', icon: IconFlask, testId: 'test-license-tile' },
  purchase: { color: 'blue', icon: IconShoppingCart, testId: 'purchase-tile' },
} as const satisfies Record<string, { color: string; icon: TablerIcon; testId: string }>;

interface TileProps {
  kind: keyof typeof TILES;
  description: string;
  /** What the license gives, or costs. */
  terms: ReactNode;
  /** Whether this client may take it now, with the server's reason where not (undefined while loading). */
  option: LicenseOptionDto | undefined;
  onClick: () => void;
}

/** A settings text in the reader's language: the German one where it is set, else the English one. */
const inLocale = (text: { description: string; description_de?: string }, locale: string) =>
  (locale.startsWith('de') && text.description_de) || text.description;

/** One way to a license: what it is, its terms, and the button that asks for it. */
function Tile({ kind, description, terms, option, onClick }: TileProps) {
  const intl = useIntl();
  const { color, icon: Icon, testId } = TILES[kind];
  const refusal = option?.reason ? localizeLicenseRefusal(intl, option.reason) : null;
  return (
    <Card withBorder radius="md" p="md" bg={`var(--mantine-color-${color}-0)`} data-testid={testId}>
      <Stack gap="xs" h="100%">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color={color} size="lg" radius="md">
            <Icon size={20} aria-hidden />
          </ThemeIcon>
          <Title order={3} fz="md">
            <FormattedMessage id={`dashboard.getLicense.${kind}.title`} />
          </Title>
        </Group>
        <Text fz="sm">{description}</Text>
        <Text fz="sm" fw={600}>
          {terms}
        </Text>
        <Button mt="auto" {...(kind === 'test' && { variant: 'light', color })} onClick={onClick} disabled={!option?.available}>
          <FormattedMessage id={`dashboard.getLicense.${kind}.button`} />
        </Button>
        {refusal && (
          <Text fz="xs" c="dimmed" data-testid={`${testId}-refusal`}>
            {refusal}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** Get License: the Test License tile (only when enabled) and the Purchase License tile with the server's price. */
export function GetLicenseCard({ settings, options, loading, error, onRetry, onRequestTest, onPurchase }: GetLicenseCardProps) {
  const intl = useIntl();
  const testEnabled = !!settings?.test_license.enabled;
  const purchaseEnabled = !!settings?.features.purchase_license_enabled;
  return (
    <Card withBorder radius="md" p="lg" component="section" aria-labelledby="get-license-title">
      <MessageTitle order={2} fz="xl" id="get-license-title" message="dashboard.getLicense.title" />
      <MessageText c="dimmed" fz="sm" mb="md" message="dashboard.getLicense.subtitle" />
      {loading ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : error || !settings ? (
        <ErrorAlert onRetry={onRetry}>{intl.formatMessage({ id: 'dashboard.errors.load' }, { message: error?.message ?? '' })}</ErrorAlert>
      ) : !testEnabled && !purchaseEnabled ? (
        <MessageText fz="sm" c="dimmed" data-testid="get-license-none" message="dashboard.getLicense.none" />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: testEnabled && purchaseEnabled ? 2 : 1 }}>
          {testEnabled && (
            <Tile
              kind="test"
              description={inLocale(settings.test_license, intl.locale)}
              terms={
                <FormattedMessage
                  id="dashboard.getLicense.test.terms"
                  values={{ days: settings.test_license.duration_days, devices: settings.test_license.max_devices }}
                />
              }
              option={options?.trial}
              onClick={onRequestTest}
            />
          )}
          {purchaseEnabled && (
            <Tile
              kind="purchase"
              description={inLocale(settings.pricing, intl.locale)}
              terms={
                <span data-testid="price-per-device">
                  <FormattedMessage
                    id="dashboard.getLicense.purchase.price"
                    values={{ price: formatMoney(intl, settings.pricing.price_per_device, settings.pricing.currency) }}
                  />
                </span>
              }
              option={options?.purchase}
              onClick={onPurchase}
            />
          )}
        </SimpleGrid>
      )}
    </Card>
  );
}
