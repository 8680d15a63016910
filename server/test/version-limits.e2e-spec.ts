import { countRows, createVersion, postVersion, someBytes, storedFiles } from './support/distribution';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** The most characters a changelog takes: 16,000 four-byte characters fit MariaDB's 65,535-byte text column. */
const CHANGELOG_MAX = 16_000;
const TOO_LONG = 'Changelog must be at most 16000 characters';
/** Four bytes in UTF-8 and one character to the validator: the most a plain character takes. */
const EMOJI = '😀';
/** An emoji with its variation selector: one character to the validator, but two code points and seven bytes. */
const EMOJI_WITH_SELECTOR = '😀\uFE0F';

describe(`version text limits (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let version: { id: number };
  let patch = 0;

  const snapshot = async () => ({ rows: await countRows(t, 'versions'), files: storedFiles(t) });
  const stored = async (id: number) => (await t.api().get(`/api/admin/versions/${id}`).set(bearer(admin)).expect(200)).body.data;
  /** A fresh version number for each upload. */
  const next = () => `5.0.${++patch}`;
  const upload = (fields: Record<string, string>) =>
    postVersion(t, admin, { version: next(), release_date: '2025-07-01', ...fields }, { bytes: someBytes(100), name: 'x.zip' });
  const edit = (fields: Record<string, string>) => t.api().put(`/api/admin/versions/${version.id}`).set(bearer(admin)).send(fields);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    version = await createVersion(t, '4.0.0', { changelog: 'First release' });
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  describe('changelog', () => {
    it(`stores ${CHANGELOG_MAX} emoji on upload and gives them back intact`, async () => {
      const changelog = EMOJI.repeat(CHANGELOG_MAX);
      const response = await upload({ changelog }).expect(201);
      expect((await stored(response.body.data.id)).changelog).toBe(changelog);
    });

    it(`stores ${CHANGELOG_MAX} emoji on edit and gives them back intact`, async () => {
      const changelog = '🚀'.repeat(CHANGELOG_MAX);
      await edit({ changelog }).expect(200);
      expect((await stored(version.id)).changelog).toBe(changelog);
    });

    it('refuses one character more on upload with 400, storing neither row nor file', async () => {
      const before = await snapshot();
      const response = await upload({ changelog: EMOJI.repeat(CHANGELOG_MAX + 1) }).expect(400);
      expect(response.body).toMatchObject({ message: TOO_LONG, errors: { changelog: [TOO_LONG] } });
      expect(await snapshot()).toEqual(before);
    });

    it('refuses one character more on edit with 400, leaving the version as it was', async () => {
      const before = await stored(version.id);
      const response = await edit({ changelog: EMOJI.repeat(CHANGELOG_MAX + 1), version: '4.0.1' }).expect(400);
      expect(response.body).toMatchObject({ message: TOO_LONG, errors: { changelog: [TOO_LONG] } });
      expect(await stored(version.id)).toEqual(before);
    });

    it('refuses a changelog within the character limit that would not fit the column in bytes', async () => {
      const changelog = EMOJI_WITH_SELECTOR.repeat(10_000);
      expect(Buffer.byteLength(changelog)).toBeGreaterThan(65_535);
      const before = await snapshot();
      const uploaded = await upload({ changelog }).expect(400);
      expect(uploaded.body.errors).toEqual({ changelog: [TOO_LONG] });
      const edited = await edit({ changelog }).expect(400);
      expect(edited.body.errors).toEqual({ changelog: [TOO_LONG] });
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('varchar fields, which the database counts in code points', () => {
    it.each([
      ['secret_hash', EMOJI.repeat(255)],
      ['encryption_key', EMOJI.repeat(255)],
      ['download_url', `https://downloads.example.com/${EMOJI.repeat(500 - 30)}`],
    ])('stores %s at its column size in emoji, intact', async (field, value) => {
      const response = await upload({ [field]: value }).expect(201);
      expect((await stored(response.body.data.id))[field]).toBe(value);
    });

    it.each([
      ['secret_hash', EMOJI_WITH_SELECTOR.repeat(200)],
      ['encryption_key', EMOJI_WITH_SELECTOR.repeat(200)],
      ['download_url', `https://downloads.example.com/${EMOJI_WITH_SELECTOR.repeat(300)}`],
    ])('refuses %s of fewer characters than its limit but more code points than its column, storing nothing', async (field, value) => {
      const before = await snapshot();
      const response = await upload({ [field]: value }).expect(400);
      expect(response.body.errors).toEqual({ [field]: [`${field} is too long to store`] });
      await edit({ [field]: value }).expect(400);
      expect(await snapshot()).toEqual(before);
    });
  });

  // SQLite does not enforce column sizes, so these exist on MariaDB only: its own refusal is the safety net for a
  // limit a DTO misses.
  const onMariadb = process.env.TEST_DB === 'mariadb' ? describe : () => undefined;
  onMariadb('when the database itself refuses a value as too long', () => {
    beforeAll(async () => {
      // The long changelogs stored above would not fit the narrowed column.
      await t.dataSource.query('UPDATE versions SET changelog = NULL');
      await t.dataSource.query('ALTER TABLE versions MODIFY changelog VARCHAR(10) NULL');
    });
    afterAll(() => t.dataSource.query('ALTER TABLE versions MODIFY changelog TEXT NULL'));
    const refused = {
      statusCode: 400,
      message: 'changelog is too long (or out of range) to store',
      errors: { changelog: ['changelog is too long (or out of range) to store'] },
    };

    it('answers 400 naming the field, not 500, to an upload, and stores neither row nor file', async () => {
      const before = await snapshot();
      const response = await upload({ changelog: 'x'.repeat(11) }).expect(400);
      expect(response.body).toEqual(refused);
      expect(await snapshot()).toEqual(before);
    });

    it('answers 400 naming the field, not 500, to an edit, and changes nothing', async () => {
      const before = await stored(version.id);
      const response = await edit({ changelog: 'x'.repeat(11) }).expect(400);
      expect(response.body).toEqual(refused);
      expect(await stored(version.id)).toEqual(before);
    });
  });
});
