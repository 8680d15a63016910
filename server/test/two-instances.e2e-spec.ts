import { ScheduledJobsService } from '../src/modules/jobs/scheduled-jobs.service';
import { callLicenseServer, issueLicense } from './support/licensing';
import { bearer, TestApp } from './support/test-app';
import { twoInstances } from './support/two-instances';

/** What must hold when several instances serve one database behind a load balancer. */
describe(`two instances on one database (${process.env.TEST_DB})`, () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    [a, b] = await twoInstances();
  });
  afterAll(async () => {
    for (const t of [a, b]) expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await b?.close();
    await a?.close();
  });

  it('refuses on B at once a session that ended by logout on A', async () => {
    const { token } = await a.signUpClient();
    await b.api().get('/api/me').set(bearer(token)).expect(200);
    await a.api().post('/api/logout').set(bearer(token)).expect(200);
    await b.api().get('/api/me').set(bearer(token)).expect(401);
  });

  it('gives exactly 3 seats to 200 simultaneous activations spread over both', async () => {
    const issued = await issueLicense(a, { max_activations: 3 });
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        callLicenseServer([a, b][i % 2], 'activate', { license_key: issued.license_key, server_uid: `spread-server-${i}` }),
      ),
    );
    expect(responses.map((response) => response.status).filter((status) => status !== 200)).toEqual([]);
    const codes = responses.map((response) => response.body.data.code);
    expect(codes.filter((code) => code === 'VALID')).toHaveLength(3);
    expect(codes.filter((code) => code === 'TOO_MANY_DEVICES')).toHaveLength(197);
    const stored = await b
      .api()
      .get(`/api/admin/licenses/${issued.id}`)
      .set(bearer(await b.adminToken()))
      .expect(200);
    expect(stored.body.data.current_activations).toBe(3);
  });

  it('runs a scheduled job on exactly one instance per period', async () => {
    const jobs = [a, b].map((t) => t.app.get(ScheduledJobsService));
    const ranOn: string[] = [];
    const fire = () =>
      Promise.all(
        jobs.flatMap((service, i) =>
          Array.from({ length: 4 }, () => service.run('two-instance-job', 3600, async () => void ranOn.push('AB'[i]))),
        ),
      );
    const outcomes = await fire();
    expect(ranOn).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'ran')).toHaveLength(1);
    // Fired again within the period, on either instance: nothing runs.
    await fire();
    expect(ranOn).toHaveLength(1);
  });
});
