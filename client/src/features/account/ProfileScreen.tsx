import { Container, Loader, Stack } from '@mantine/core';
import { useIntl } from 'react-intl';
import { useGetProfile } from '../../api/generated/endpoints/account/account';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useAuth } from '../../lib/auth/auth-context';
import { localizeServerMessage } from '../../lib/server-messages';
import { EmailCard, PasswordCard, PersonalInfoCard } from './ProfileCards';
import { SessionsCard } from './SessionsCard';
import { TwoFactorCard } from './TwoFactorCard';
import { MessageTitle } from '../../components/Message';

/** The signed-in user's own account: profile, e-mail address, password, two-factor sign-in (admins), and sessions. */
export function ProfileScreen() {
  const intl = useIntl();
  const { isAdmin } = useAuth();
  const profile = useGetProfile();
  const data = profile.data?.data;
  return (
    <Container size="md" py="md" px={0}>
      <Stack gap="lg">
        <MessageTitle order={1} fz="h2" message="account.title" />
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
