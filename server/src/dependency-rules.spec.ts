import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The dependency rules hold on a deliberate violation: the fixture has a service that imports database/prepared-sql
 * (as a repository may), and dependency-cruiser, run with the project's own configuration, must refuse it.
 */
describe('dependency rules', () => {
  const fixture = resolve(__dirname, '../test/fixtures/dependency-rules');
  const config = resolve(__dirname, '../.dependency-cruiser.cjs');

  it('refuse a service that reaches the database, and let its repository do so', () => {
    // The package exports no entry CommonJS can resolve; its bin is where npm installs it (hoisted by the workspace).
    const bin = [resolve(__dirname, '..'), resolve(__dirname, '../..')]
      .map((root) => join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'))
      .find((path) => existsSync(path))!;
    let report = '';
    try {
      report = execFileSync(process.execPath, [bin, 'src', '--config', config, '--output-type', 'json'], {
        cwd: fixture,
        encoding: 'utf8',
      });
    } catch (error) {
      report = (error as { stdout: string }).stdout;
    }
    const violations = (JSON.parse(report) as { summary: { violations: Array<{ from: string; to: string; rule: { name: string } }> } })
      .summary.violations;
    expect(violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`)).toEqual([
      'sql-in-repositories: src/modules/shop/shop.service.ts → src/database/prepared-sql.ts',
    ]);
  });
});
