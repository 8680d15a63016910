import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { Changelog } from './Changelog';

describe('Changelog', () => {
  it('renders the Markdown of a changelog: headings, lists, emphasis and links', () => {
    renderWithProviders(
      <Changelog testId="log" text={'## 4.3.0\n\n- Fixed RTMP reconnects\n- **Faster** HLS\n\nSee [notes](https://example.com/notes).'} />,
    );
    const log = screen.getByTestId('log');
    expect(screen.getByRole('heading', { name: '4.3.0' }).tagName).toBe('H4');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Fixed RTMP reconnects', 'Faster HLS']);
    expect(log.querySelector('strong')?.textContent).toBe('Faster');
    const link = screen.getByRole('link', { name: 'notes' });
    expect(link.getAttribute('href')).toBe('https://example.com/notes');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(log.textContent).not.toContain('##');
  });

  it('renders no HTML of the text and drops script addresses', () => {
    renderWithProviders(
      <Changelog
        testId="log"
        text={
          '<script>window.hacked = 1</script>\n\n<img src=x onerror="window.hacked = 1">\n\n[click](javascript:alert(1)) ![x](javascript:alert(2))'
        }
      />,
    );
    const log = screen.getByTestId('log');
    expect(log.querySelector('script, img[onerror]')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
    const link = screen.getByText('click').closest('a');
    expect(link?.getAttribute('href') ?? '').not.toContain('javascript:');
    expect(log.querySelector('img')?.getAttribute('src') ?? '').not.toContain('javascript:');
  });
});
