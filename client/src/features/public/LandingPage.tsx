import { Anchor, Badge, Box, Button, Card, Container, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAdjustmentsHorizontal,
  IconApi,
  IconArrowRight,
  IconBolt,
  IconBrandApple,
  IconBrandUbuntu,
  IconBrandWindows,
  IconChartBar,
  IconCheck,
  IconLifebuoy,
  IconMail,
  IconPlayerPlay,
  IconPlugConnected,
  IconRocket,
  IconShieldCheck,
} from '@tabler/icons-react';
import { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import type { MessageId } from '../../i18n/message-id';
import { Logo } from '../../components/layouts/Logo';
import { PublicHeader } from './PublicHeader';
import classes from './public.module.css';
import { MessageText, MessageTitle } from '../../components/Message';

const FEATURES: Array<{ title: MessageId; text: MessageId; icon: typeof IconBolt; color: string }> = [
  { title: 'landing.features.performance.title', text: 'landing.features.performance.text', icon: IconBolt, color: 'yellow' },
  { title: 'landing.features.protocols.title', text: 'landing.features.protocols.text', icon: IconPlugConnected, color: 'blue' },
  { title: 'landing.features.abr.title', text: 'landing.features.abr.text', icon: IconAdjustmentsHorizontal, color: 'teal' },
  { title: 'landing.features.security.title', text: 'landing.features.security.text', icon: IconShieldCheck, color: 'green' },
  { title: 'landing.features.analytics.title', text: 'landing.features.analytics.text', icon: IconChartBar, color: 'grape' },
  { title: 'landing.features.setup.title', text: 'landing.features.setup.text', icon: IconRocket, color: 'orange' },
];

const STEPS: Array<{ title: MessageId; text: MessageId }> = [
  { title: 'landing.demo.register.title', text: 'landing.demo.register.text' },
  { title: 'landing.demo.download.title', text: 'landing.demo.download.text' },
  { title: 'landing.demo.activate.title', text: 'landing.demo.activate.text' },
];

const PROTOCOLS = ['RTMP', 'SRT', 'WebRTC', 'HLS', 'MPEG-DASH', 'RTSP'];

/** A full-width band of the page (a section unless told) and its content, centered to `size`. */
function Band({
  component = 'section',
  size = 'lg',
  ta,
  children,
  ...box
}: {
  component?: 'section' | 'footer';
  id?: string;
  className: string;
  'aria-labelledby'?: string;
  size?: 'md' | 'lg';
  ta?: 'center';
  children: ReactNode;
}) {
  return (
    <Box component={component} {...box}>
      <Container size={size} ta={ta}>
        {children}
      </Container>
    </Box>
  );
}

/** A titled section of the page (landing.{name}.eyebrow, .title, .subtitle), then its cards in a grid. */
function LandingSection({
  name,
  alt = false,
  size = 'lg',
  grid,
  children,
  after,
}: {
  name: 'features' | 'demo' | 'download' | 'pricing';
  /** The tinted background, every other section. */
  alt?: boolean;
  size?: 'md' | 'lg';
  /** The grid's column classes. */
  grid: string;
  children: ReactNode;
  /** Below the grid. */
  after?: ReactNode;
}) {
  return (
    <Band id={name} className={alt ? `${classes.section} ${classes.sectionAlt}` : classes.section} size={size}>
      <Stack gap="xs" align="center" ta="center" mb={48} maw={680} mx="auto">
        <Text tt="uppercase" fw={700} fz="xs" c="violet.6" lts={1.5}>
          <FormattedMessage id={`landing.${name}.eyebrow`} />
        </Text>
        <Title order={2} fz={{ base: 28, sm: 36 }}>
          <FormattedMessage id={`landing.${name}.title`} />
        </Title>
        <Text c="dimmed" fz="lg">
          <FormattedMessage id={`landing.${name}.subtitle`} />
        </Text>
      </Stack>
      <div className={`${classes.grid} ${grid}`}>{children}</div>
      {after}
    </Band>
  );
}

/** A card of a section: its mark (an icon, a step number), title and text. */
function PointCard({ mark, title, text, className }: { mark: ReactNode; title: MessageId; text: MessageId; className?: string }) {
  return (
    <Card withBorder padding="xl" radius="lg" className={className}>
      {mark}
      <Title order={3} fz="lg" mt="md">
        <FormattedMessage id={title} />
      </Title>
      <MessageText c="dimmed" mt="xs" fz="sm" lh={1.6} message={text} />
    </Card>
  );
}

function Hero() {
  return (
    <Band className={classes.hero} aria-labelledby="hero-title">
      <div className={`${classes.grid} ${classes.md2} ${classes.heroGrid}`}>
        <Stack gap="lg" justify="center">
          <Badge
            variant="light"
            color="violet"
            size="lg"
            w="fit-content"
            styles={{ root: { background: 'rgba(255,255,255,0.12)', color: '#e5dbff' } }}
          >
            <FormattedMessage id="landing.hero.badge" />
          </Badge>
          <Title id="hero-title" order={1} className={classes.heroTitle}>
            <FormattedMessage
              id="landing.hero.title"
              values={{ accent: (chunks) => <span className={classes.heroAccent}>{chunks}</span> }}
            />
          </Title>
          <MessageText fz={{ base: 'md', sm: 'lg' }} c="gray.3" maw={520} message="landing.hero.subtitle" />
          <Group gap="sm">
            <Button component={Link} to={paths.register} size="lg" rightSection={<IconArrowRight size={18} />}>
              <FormattedMessage id="landing.hero.trial" />
            </Button>
            <Button component="a" href="#demo" size="lg" variant="white" color="dark" leftSection={<IconPlayerPlay size={18} />}>
              <FormattedMessage id="landing.hero.demo" />
            </Button>
          </Group>
          <MessageText fz="sm" c="gray.4" message="landing.hero.note" />
        </Stack>
        <Card className={classes.heroPanel} p="lg" aria-hidden style={{ alignSelf: 'center' }}>
          <Group justify="space-between" mb="md">
            <Text fw={600}>streamhub-server</Text>
            <Badge
              color="green"
              variant="dot"
              styles={{ root: { background: 'transparent', color: '#d3f9d8', borderColor: 'rgba(255,255,255,0.25)' } }}
            >
              live
            </Badge>
          </Group>
          <div className={classes.terminal}>
            {
              '$ sudo apt install ./streamhub-server.deb\n$ streamhub license activate SH-XXXX-XXXX\n  ✓ license valid · 1 of 5 devices\n$ streamhub start --ingest srt,rtmp\n  ✓ ingest  srt://0.0.0.0:9000\n  ✓ deliver hls, dash, webrtc'
            }
          </div>
          <Group gap={6} mt="md">
            {PROTOCOLS.map((protocol) => (
              <Badge
                key={protocol}
                variant="outline"
                color="gray.3"
                styles={{ root: { color: '#e9ecef', borderColor: 'rgba(255,255,255,0.25)' } }}
              >
                {protocol}
              </Badge>
            ))}
          </Group>
        </Card>
      </div>
    </Band>
  );
}

function Features() {
  return (
    <LandingSection name="features" grid={`${classes.sm2} ${classes.md3}`}>
      {FEATURES.map(({ title, text, icon: Icon, color }) => (
        <PointCard
          key={title}
          className={classes.featureCard}
          mark={
            <ThemeIcon size={48} radius="md" variant="light" color={color}>
              <Icon size={26} />
            </ThemeIcon>
          }
          title={title}
          text={text}
        />
      ))}
    </LandingSection>
  );
}

function Demo() {
  return (
    <LandingSection name="demo" alt grid={classes.md3}>
      {STEPS.map(({ title, text }, index) => (
        <PointCard
          key={title}
          mark={
            <ThemeIcon size={36} radius="xl" color="violet">
              <Text fw={700}>{index + 1}</Text>
            </ThemeIcon>
          }
          title={title}
          text={text}
        />
      ))}
    </LandingSection>
  );
}

function Download() {
  const platforms = [
    { icon: IconBrandUbuntu, name: 'Linux', detail: '.deb · .rpm · .tar.gz' },
    { icon: IconBrandWindows, name: 'Windows', detail: '.exe · .zip' },
    { icon: IconBrandApple, name: 'macOS', detail: '.dmg · .pkg' },
  ];
  return (
    <LandingSection
      name="download"
      grid={classes.sm3}
      after={
        <Group justify="center" mt="xl">
          <Button component={Link} to={paths.register} variant="light" size="md">
            <FormattedMessage id="landing.download.cta" />
          </Button>
        </Group>
      }
    >
      {platforms.map(({ icon: Icon, name, detail }) => (
        <Card key={name} withBorder radius="lg" padding="xl" ta="center">
          <Icon size={40} style={{ margin: '0 auto' }} color="var(--mantine-color-violet-6)" aria-hidden />
          <Title order={3} fz="lg" mt="sm">
            {name}
          </Title>
          <Text c="dimmed" fz="sm">
            x64 · arm64
          </Text>
          <Text fz="sm" mt={4}>
            {detail}
          </Text>
        </Card>
      ))}
    </LandingSection>
  );
}

function Plan({ plan, cta, featured = false }: { plan: 'trial' | 'paid'; cta: MessageId; featured?: boolean }) {
  const points = [1, 2, 3] as const;
  return (
    <Card
      withBorder
      radius="lg"
      padding="xl"
      style={featured ? { borderColor: 'var(--mantine-color-violet-4)', borderWidth: 2 } : undefined}
    >
      <Title order={3} fz="xl">
        <FormattedMessage id={`landing.pricing.${plan}.title`} />
      </Title>
      <Text c="dimmed" mt="xs">
        <FormattedMessage id={`landing.pricing.${plan}.text`} />
      </Text>
      <List mt="md" spacing="xs" icon={<IconCheck size={16} color="var(--mantine-color-green-6)" />}>
        {points.map((point) => (
          <List.Item key={point}>
            <FormattedMessage id={`landing.pricing.${plan}.point${point}`} />
          </List.Item>
        ))}
      </List>
      <Button component={Link} to={paths.register} variant={featured ? 'filled' : 'light'} fullWidth mt="xl">
        <FormattedMessage id={cta} />
      </Button>
    </Card>
  );
}

function Pricing() {
  return (
    <LandingSection name="pricing" alt size="md" grid={classes.sm2}>
      <Plan plan="trial" cta="landing.hero.trial" />
      <Plan plan="paid" cta="landing.pricing.paid.cta" featured />
    </LandingSection>
  );
}

/** Documentation or support: an icon, what it is, and where to go. */
function InfoCard({
  id,
  icon,
  title,
  text,
  children,
}: {
  id: string;
  icon: ReactNode;
  title: MessageId;
  text: MessageId;
  children: ReactNode;
}) {
  return (
    <Card id={id} withBorder radius="lg" padding="xl">
      {icon}
      <Title order={2} fz="xl" mt="md">
        <FormattedMessage id={title} />
      </Title>
      <MessageText c="dimmed" mt="xs" message={text} />
      {children}
    </Card>
  );
}

function DocsAndSupport() {
  return (
    <Band className={classes.section}>
      <div className={`${classes.grid} ${classes.md2}`}>
        <InfoCard
          id="documentation"
          icon={
            <ThemeIcon size={44} radius="md" variant="light">
              <IconApi size={24} />
            </ThemeIcon>
          }
          title="landing.docs.title"
          text="landing.docs.text"
        >
          <Anchor href="/api/docs" mt="md" display="inline-block" fw={600}>
            <FormattedMessage id="landing.docs.link" />
          </Anchor>
        </InfoCard>
        <InfoCard
          id="support"
          icon={
            <ThemeIcon size={44} radius="md" variant="light" color="teal">
              <IconLifebuoy size={24} />
            </ThemeIcon>
          }
          title="landing.support.title"
          text="landing.support.text"
        >
          <Group gap={6} mt="md">
            <IconMail size={16} />
            <Anchor href="mailto:support@example.com" fw={600}>
              support@example.com
            </Anchor>
          </Group>
        </InfoCard>
      </div>
    </Band>
  );
}

function CallToAction() {
  return (
    <Band className={classes.cta} size="md" ta="center">
      <MessageTitle order={2} fz={{ base: 26, sm: 34 }} c="white" message="landing.cta.title" />
      <MessageText mt="sm" fz="lg" c="violet.0" message="landing.cta.text" />
      <Group justify="center" mt="xl">
        <Button component={Link} to={paths.register} size="lg" variant="white" color="violet">
          <FormattedMessage id="landing.hero.trial" />
        </Button>
        <Button
          component={Link}
          to={paths.login}
          size="lg"
          variant="outline"
          color="white"
          styles={{ root: { color: 'white', borderColor: 'rgba(255,255,255,0.6)' } }}
        >
          <FormattedMessage id="landing.nav.login" />
        </Button>
      </Group>
    </Band>
  );
}

function Footer() {
  return (
    <Band component="footer" className={classes.footer}>
      <Group justify="space-between" gap="md">
        <Logo inverted />
        <Group gap="lg">
          <Anchor href="#features" c="gray.4" fz="sm">
            <FormattedMessage id="landing.nav.features" />
          </Anchor>
          <Anchor href="#pricing" c="gray.4" fz="sm">
            <FormattedMessage id="landing.nav.pricing" />
          </Anchor>
          <Anchor href="/api/docs" c="gray.4" fz="sm">
            <FormattedMessage id="landing.nav.documentation" />
          </Anchor>
          <Anchor href="#support" c="gray.4" fz="sm">
            <FormattedMessage id="landing.nav.support" />
          </Anchor>
        </Group>
      </Group>
      <MessageText fz="xs" mt="lg" c="gray.5" message="landing.footer.copyright" values={{ year: new Date().getFullYear() }} />
    </Band>
  );
}

export function LandingPage() {
  return (
    <>
      <PublicHeader />
      <main>
        <Hero />
        <Features />
        <Demo />
        <Download />
        <Pricing />
        <DocsAndSupport />
        <CallToAction />
      </main>
      <Footer />
    </>
  );
}
