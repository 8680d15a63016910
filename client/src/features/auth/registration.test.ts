import { describe, expect, it } from 'vitest';
import { validateRegistration } from './registration';

const valid = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  password: 'engine-1',
  password_confirmation: 'engine-1',
};

describe('validateRegistration (spec order)', () => {
  it('accepts a valid form', () => {
    expect(validateRegistration(valid)).toEqual({});
  });

  it('reports every empty required field first, even when other rules fail too', () => {
    expect(validateRegistration({ ...valid, first_name: ' ', password: '', email: 'bad', password_confirmation: 'x' })).toEqual({
      first_name: 'register.errors.required',
      password: 'register.errors.required',
    });
  });

  it('checks the e-mail before the password length', () => {
    expect(validateRegistration({ ...valid, email: 'ada@', password: 'short', password_confirmation: 'short' })).toEqual({
      email: 'register.errors.email',
    });
  });

  it('checks the password length before the confirmation', () => {
    expect(validateRegistration({ ...valid, password: 'short', password_confirmation: 'other' })).toEqual({
      password: 'register.errors.passwordLength',
    });
  });

  it('checks the confirmation last', () => {
    expect(validateRegistration({ ...valid, password_confirmation: 'engine-2' })).toEqual({
      password_confirmation: 'register.errors.mismatch',
    });
  });
});
