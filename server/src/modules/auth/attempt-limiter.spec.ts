import { TooManyAttemptsError } from '../../common/api-error';
import { AttemptLimiter } from './attempt-limiter';

describe('AttemptLimiter', () => {
  let now = 0;
  const limiter = () => new AttemptLimiter(60, () => now);

  beforeEach(() => (now = 1_000_000));

  it('allows attempts below the limit and refuses at it, with the seconds left', () => {
    const l = limiter();
    l.record('account:a', 'account:a');
    expect(() => l.assertAllowed([['account:a', 3]], 'wait {minutes}')).not.toThrow();
    l.record('account:a');
    now += 15_000;
    try {
      l.assertAllowed([['account:a', 3]], 'wait {minutes} min');
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      expect((error as TooManyAttemptsError).retryAfterSeconds).toBe(45);
      expect((error as Error).message).toBe('wait 1 min');
    }
  });

  it('forgets a key after its window and when cleared', () => {
    const l = limiter();
    l.record('a', 'a');
    expect(() => l.assertAllowed([['a', 2]], 'x')).toThrow();
    now += 60_000;
    expect(() => l.assertAllowed([['a', 2]], 'x')).not.toThrow();
    l.record('a', 'a');
    l.clear('a');
    expect(() => l.assertAllowed([['a', 2]], 'x')).not.toThrow();
  });

  it('keeps keys apart', () => {
    const l = limiter();
    l.record('ip:1', 'ip:1');
    expect(() => l.assertAllowed([['ip:2', 2]], 'x')).not.toThrow();
    expect(() =>
      l.assertAllowed(
        [
          ['ip:2', 2],
          ['ip:1', 2],
        ],
        'x',
      ),
    ).toThrow();
  });
});
