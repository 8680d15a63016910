import { describe, expect, it } from 'vitest';
import { atBreak, splitEmails } from './emails';

describe('e-mail addresses in a text', () => {
  it('finds every address, and leaves the sentence’s full stop outside it', () => {
    expect(splitEmails('Sign in: customer-54ed92@portal.test')).toEqual(['Sign in: ', 'customer-54ed92@portal.test', '']);
    expect(splitEmails('Mail to a.b@example-company.com. Then x@y.de')).toEqual([
      'Mail to ',
      'a.b@example-company.com',
      '. Then ',
      'x@y.de',
      '',
    ]);
    expect(splitEmails('No address here')).toEqual(['No address here']);
  });

  it('splits an address before its @', () => {
    expect(atBreak('maximiliane.mustermann@example-enterprise.com')).toEqual(['maximiliane.mustermann', '@example-enterprise.com']);
  });
});
