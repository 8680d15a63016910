import { Button, Group, NumberInput, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconRocket } from '@tabler/icons-react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useGetReleaseRollout, useSetReleaseRollout } from '../../../api/generated/endpoints/updates/updates';
import type { AdminVersionDto, ReleaseRolloutDto } from '../../../api/generated/model';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { DialogProps, FormModal } from '../../../components/FormModal';
import { useField } from '../../../components/use-field';
import { useFormSubmit } from '../../../components/use-form-submit';
import { localizeServerMessage } from '../../../lib/server-messages';

interface FormValues {
  rollout_percent: number;
  rollout_paused: boolean;
}

/** A figure of the rollout: what it counts, and how many servers. */
function Figure({
  label,
  count,
  testId,
}: {
  label: 'admin.versions.rollout.offered' | 'admin.versions.rollout.reporting';
  count: number | undefined;
  testId: string;
}) {
  return (
    <Stack gap={0}>
      <Text fz="xs" c="dimmed">
        <FormattedMessage id={label} />
      </Text>
      <Text fw={700} data-testid={testId}>
        {count === undefined ? '…' : <FormattedMessage id="admin.versions.rollout.servers" values={{ count }} />}
      </Text>
    </Stack>
  );
}

type RolloutModalProps = DialogProps<'onSaved', ReleaseRolloutDto> & { version: AdminVersionDto };

/**
 * A release's staged rollout: the share of servers the update API offers it to (chosen by their ids), paused or
 * not, and how far it reached (servers offered it, servers that run it now). Finish offers it to every server.
 */
export function RolloutModal({ version, onClose, onSaved }: RolloutModalProps) {
  const intl = useIntl();
  const figures = useGetReleaseRollout(version.id);
  const save = useSetReleaseRollout();
  const form = useForm<FormValues>({
    initialValues: { rollout_percent: version.rollout_percent, rollout_paused: version.rollout_paused },
  });
  const field = useField(form);
  const send = async (values: FormValues) => {
    const response = await save.mutateAsync({ id: version.id, data: values });
    onClose();
    onSaved(response.data);
  };
  const submit = useFormSubmit(form, { failure: 'admin.versions.errors.rollout', send });
  const finish = () =>
    send({ rollout_percent: 100, rollout_paused: false }).catch((error: Error) =>
      submit.fail(intl.formatMessage({ id: 'admin.versions.errors.rollout' }, { message: localizeServerMessage(intl, error.message) })),
    );
  const reached = figures.data?.data;
  return (
    <FormModal
      onClose={onClose}
      title="admin.versions.rollout.title"
      titleValues={{ version: version.version }}
      size="md"
      submit={submit}
      saving={save.isPending}
    >
      <Text fz="sm">
        <FormattedMessage id="admin.versions.rollout.hint" />
      </Text>
      {figures.error && (
        <ErrorAlert>{intl.formatMessage({ id: 'admin.versions.errors.rolloutFigures' }, { message: figures.error.message })}</ErrorAlert>
      )}
      <SimpleGrid cols={2}>
        <Figure label="admin.versions.rollout.offered" count={reached?.offered} testId="rollout-offered" />
        <Figure label="admin.versions.rollout.reporting" count={reached?.reporting} testId="rollout-reporting" />
      </SimpleGrid>
      <NumberInput
        min={0}
        max={100}
        step={5}
        allowDecimal={false}
        allowNegative={false}
        suffix=" %"
        {...field('rollout_percent', 'admin.versions.rollout.percent')}
      />
      <Switch {...field('rollout_paused', 'admin.versions.rollout.paused', { type: 'checkbox' })} />
      <Group>
        <Button
          variant="light"
          leftSection={<IconRocket size={16} />}
          onClick={() => void finish()}
          disabled={save.isPending}
          data-testid="rollout-finish"
        >
          <FormattedMessage id="admin.versions.rollout.finish" />
        </Button>
      </Group>
    </FormModal>
  );
}
