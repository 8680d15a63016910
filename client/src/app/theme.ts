import { createTheme, CSSVariablesResolver, defaultVariantColorsResolver, parseThemeColor, VariantColorsResolver } from '@mantine/core';

// Light variants (badges, light buttons, alerts): shade 9 text on shade 0, which meets WCAG AA contrast.
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || parsed.shade !== undefined) return colors;
  return {
    ...colors,
    background: `var(--mantine-color-${parsed.color}-0)`,
    hover: `var(--mantine-color-${parsed.color}-1)`,
    color: `var(--mantine-color-${parsed.color}-9)`,
  };
};

export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', fontWeight: '700' },
  variantColorResolver,
});

/** 'dimmed' and error text (field errors) dark enough for AA contrast on white and on the grey page background. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636b', '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});
