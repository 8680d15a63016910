import { Anchor, Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { LanguageSelect } from '../LanguageSelect';
import { Logo } from './Logo';
import classes from './centered.module.css';

/** The frame of the sign-in and registration screens. */
export function AuthLayout({
  title,
  subtitle,
  children,
  width = 420,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  width?: number;
}) {
  return (
    <Box component="main" className={classes.centered}>
      <Stack w="100%" maw={width} gap="lg">
        <Group justify="space-between">
          <Anchor component={Link} to={paths.home} underline="never" aria-label="StreamHub">
            <Logo />
          </Anchor>
          <LanguageSelect />
        </Group>
        <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 'xl' }}>
          <Title order={1} fz={24}>
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" fz="sm" mt={4}>
              {subtitle}
            </Text>
          )}
          <Box mt="lg">{children}</Box>
        </Paper>
      </Stack>
    </Box>
  );
}
