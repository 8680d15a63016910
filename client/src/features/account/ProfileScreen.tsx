import { Container, Loader, Stack, Title } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { useGetProfile } from '../../api/generated/endpoints/account/account';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAuth } from '../../lib/auth/auth-context';
import { localizeServerMessage } from '../../lib/server-messages';
import { EmailCard, PasswordCard, PersonalInfoCard } from './ProfileCards';
import { SessionsCard } from './SessionsCard';
import { TwoFactorCard } from './TwoFactorCard';

/** The signed-in user's own account: profile, e-mail address, password, two-factor sign-in (admins), and sessions. */
export function ProfileScreen() {
  const intl = useIntl();
  const { isAdmin } = useAuth();
  const profile = useGetProfile();
  const data = profile.data?.data;
  return (
    <Container size="md" py="md" px={0}>
      <Stack gap="lg">
        <Title order={1} fz="h2">
          <FormattedMessage id="account.title" />
        </Title>
        {profile.isLoading && <Loader />}
        {profile.error && <ErrorAlert onRetry={() => profile.refetch()}>{localizeServerMessage(intl, profile.error.message)}</ErrorAlert>}
        {data && (
          <>
            {/* Keyed by the account, so the form starts from what the server has. */}
            <PersonalInfoCard key={data.id} profile={data} />
            <EmailCard profile={data} />
          </>
        )}
        <PasswordCard />
        {isAdmin && <TwoFactorCard />}
        <SessionsCard />
      </Stack>
    </Container>
  );
}
