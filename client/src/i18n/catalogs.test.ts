import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { partOf } from './catalog-parts';
import de from './de.json';
import en from './en.json';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') && !name.endsWith('.test.tsx') ? [path] : [];
  });
}

describe('message catalogs', () => {
  it('hold the same keys in English and German', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  it('have no empty messages, and German differs where it should', () => {
    for (const [key, text] of Object.entries(en)) expect(text.trim(), key).not.toBe('');
    for (const [key, text] of Object.entries(de)) expect(text.trim(), key).not.toBe('');
    const same = Object.keys(en).filter((key) => en[key as keyof typeof en] === de[key as keyof typeof de]);
    // Names and words that are the same in both languages (Admin, Status, Support, Download, Moderator, …) stay few.
    expect(same.length).toBeLessThan(Object.keys(en).length * 0.08);
  });

  it('parse as ICU messages with the same placeholders in both languages', () => {
    // Argument names from the parsed message (plural and select branches included), not from the text's braces.
    const names = (elements: MessageFormatElement[]): string[] =>
      elements.flatMap((element) => [
        ...('value' in element && element.type !== TYPE.literal ? [element.value] : []),
        ...('options' in element ? Object.values(element.options).flatMap((option) => names(option.value)) : []),
        ...('children' in element ? names(element.children) : []),
      ]);
    const placeholders = (text: string) => names(parse(text));
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(() => new IntlMessageFormat(en[key], 'en')).not.toThrow();
      expect(() => new IntlMessageFormat(de[key], 'de')).not.toThrow();
      expect(new Set(placeholders(de[key])), key).toEqual(new Set(placeholders(en[key])));
    }
  });

  it('contain every message id the source code names', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(join(__dirname, '..'))) {
      const code = readFileSync(file, 'utf8');
      for (const match of code.matchAll(/\bid[=:]\s*\{?\s*['"`]([a-zA-Z]+\.[\w.]+)['"`]/g)) used.add(match[1]);
      for (const match of code.matchAll(
        /['"]((?:landing|users|admin|errors|register|login|verify|pager|common|fields|notFound|unauthorized|portal|dashboard|guard|adminLogin)\.[\w.]+)['"]/g,
      ))
        used.add(match[1]);
    }
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter((id) => !(id in en));
    expect(missing).toEqual([]);
  });

  /** The message ids a set of source files names (those in the catalog). */
  const idsIn = (files: string[]) => {
    const used = new Set<string>();
    for (const file of files)
      for (const match of readFileSync(file, 'utf8').matchAll(/['"`]([a-zA-Z]+\.[\w.]+)['"`]/g)) if (match[1] in en) used.add(match[1]);
    return used;
  };

  it('ship the messages of the first page (the app frame, what every page shows) in the first part', () => {
    const root = join(__dirname, '..');
    const used = idsIn([
      join(root, 'features/public/UnauthorizedPage.tsx'),
      ...sourceFiles(join(root, 'app')),
      ...['NotFoundPage', 'LanguageSelect', 'ErrorAlert', 'SuccessAlert', 'layouts/AuthLayout'].map((name) =>
        join(root, `components/${name}.tsx`),
      ),
    ]);
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((id) => partOf(id) !== 'first')).toEqual([]);
  });

  it('ship the landing page’s messages in the first or the landing part (it loads with its own part only)', () => {
    const used = idsIn(sourceFiles(join(__dirname, '../features/public')));
    expect([...used].filter((id) => partOf(id) === 'landing').length).toBeGreaterThan(40);
    expect([...used].filter((id) => partOf(id) !== 'first' && partOf(id) !== 'landing')).toEqual([]);
  });

  it('ship the messages of the sign-in screens (sign-in, registration, reset, the admin sign-in) in the first or the sign-in part', () => {
    const root = join(__dirname, '..');
    const used = idsIn([
      ...sourceFiles(join(root, 'features/auth')),
      ...sourceFiles(join(root, 'components/mfa')),
      join(root, 'lib/server-messages.ts'),
      join(root, 'lib/password-rules.ts'),
    ]);
    expect(used.size).toBeGreaterThan(80);
    expect([...used].filter((id) => partOf(id) === 'rest')).toEqual([]);
    expect([...used].filter((id) => partOf(id) === 'signIn').length).toBeGreaterThan(40);
  });
});
