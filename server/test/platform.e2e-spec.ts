import { startTestApp, TestApp } from './support/test-app';

describe(`platform endpoints (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close());

  it('reports health with a real database check', async () => {
    const response = await t.api().get('/api/health').expect(200);
    expect(response.body).toMatchObject({
      status: 'ok',
      database: 'up',
      database_type: process.env.TEST_DB === 'mariadb' ? 'mariadb' : 'sqlite',
    });
  });

  it('reports 503 when the database is gone', async () => {
    const other = await startTestApp();
    await other.dataSource.destroy();
    const response = await other.api().get('/api/health').expect(503);
    expect(response.body).toMatchObject({ status: 'error', database: 'down' });
    await other.dataSource.initialize();
    await other.close();
  });

  it('serves Swagger UI and the OpenAPI document with the auth and users operations', async () => {
    const ui = await t.api().get('/api/docs/').expect(200);
    expect(ui.text).toContain('swagger-ui');
    const document = (await t.api().get('/api/docs-json').expect(200)).body;
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path as object).map((op) => op.operationId));
    expect(operations).toEqual(
      expect.arrayContaining([
        'register',
        'login',
        'adminLogin',
        'logout',
        'getCurrentUser',
        'verifyEmail',
        'listUsers',
        'createUser',
        'updateUser',
        'deleteUser',
        'toggleUserStatus',
        'verifyUserEmail',
        'getHealth',
      ]),
    );
    expect(document.paths['/api/admin/users'].get.security).toEqual([{ bearer: [] }]);
    expect(document.paths['/api/login'].post.security).toBeUndefined();
    expect(document.paths['/api/login'].post['x-public']).toBeUndefined();
  });
});
