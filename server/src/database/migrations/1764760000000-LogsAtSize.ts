import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Logs and charts at millions of rows. Downloads per day become three coarse figures (by OS, by OS and
 * architecture, by version) instead of one per version × OS × architecture, so a month's chart reads a few rows a
 * day, not one per combination: the old figures are folded into the new ones and removed.
 */
export class LogsAtSize1764760000000 implements MigrationInterface {
  name = 'LogsAtSize1764760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // `version|os|architecture` split with substr/instr, which SQLite and MySQL both have.
    const parts =
      "SELECT day, substr(dimension, 1, instr(dimension, '|') - 1) AS version, substr(dimension, instr(dimension, '|') + 1) AS platform, value " +
      "FROM daily_stats WHERE metric = 'downloads'";
    await queryRunner.query(
      `INSERT INTO daily_stats (day, metric, dimension, value) SELECT day, 'downloads_platform', platform, SUM(value) FROM (${parts}) p GROUP BY day, platform`,
    );
    await queryRunner.query(
      `INSERT INTO daily_stats (day, metric, dimension, value) SELECT day, 'downloads_version', version, SUM(value) FROM (${parts}) p GROUP BY day, version`,
    );
    await queryRunner.query(
      "INSERT INTO daily_stats (day, metric, dimension, value) SELECT day, 'downloads_os', os, SUM(value) FROM " +
        `(SELECT day, substr(platform, 1, instr(platform, '|') - 1) AS os, value FROM (${parts}) q) p GROUP BY day, os`,
    );
    await queryRunner.query("DELETE FROM daily_stats WHERE metric = 'downloads'");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The version × platform figures are not in the coarse ones: count them again from the download log.
    const isMysql = ['mysql', 'mariadb'].includes(queryRunner.connection.driver.options.type);
    const day = isMysql ? "DATE_FORMAT(created_at, '%Y-%m-%d')" : 'substr(created_at, 1, 10)';
    const dimension = isMysql
      ? "LEFT(CONCAT(COALESCE(version, ''), '|', COALESCE(os_type, ''), '|', COALESCE(architecture, '')), 100)"
      : "substr(COALESCE(version, '') || '|' || COALESCE(os_type, '') || '|' || COALESCE(architecture, ''), 1, 100)";
    await queryRunner.query("DELETE FROM daily_stats WHERE metric IN ('downloads_os', 'downloads_platform', 'downloads_version')");
    await queryRunner.query(
      `INSERT INTO daily_stats (day, metric, dimension, value) SELECT ${day}, 'downloads', ${dimension}, COUNT(*) ` +
        `FROM download_logs GROUP BY ${day}, ${dimension}`,
    );
  }
}
