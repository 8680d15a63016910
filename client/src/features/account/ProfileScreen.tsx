import { Container, Stack, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { useAuth } from '../../lib/auth/auth-context';
import { TwoFactorCard } from './TwoFactorCard';

/** The signed-in user's own account: for admins, their two-factor sign-in. */
export function ProfileScreen() {
  const { isAdmin } = useAuth();
  return (
    <Container size="md" py="md" px={0}>
      <Stack gap="lg">
        <Title order={1} fz="h2">
          <FormattedMessage id="account.title" />
        </Title>
        {isAdmin && <TwoFactorCard />}
      </Stack>
    </Container>
  );
}
