import { ValidationError } from '@nestjs/common';
import { validationErrorFactory } from './validation';

const failure = (property: string, constraints: Record<string, string>): ValidationError => ({ property, constraints, children: [] });

describe('validationErrorFactory', () => {
  it('names the failure of the earliest rule family first, whatever the field order', () => {
    const error = validationErrorFactory([
      failure('password_confirmation', { matchesProperty: 'Passwords do not match' }),
      failure('password', { minLength: 'Password must be at least 8 characters' }),
      failure('email', { isEmail: 'Please enter a valid email address' }),
      failure('last_name', { isNotEmpty: 'This field is required' }),
    ]);
    expect(error.getStatus()).toBe(400);
    expect(error.getResponse()).toEqual({
      statusCode: 400,
      message: 'This field is required',
      errors: {
        last_name: ['This field is required'],
        email: ['Please enter a valid email address'],
        password: ['Password must be at least 8 characters'],
        password_confirmation: ['Passwords do not match'],
      },
    });
  });

  it('keeps the field order within one rule family', () => {
    const error = validationErrorFactory([failure('first_name', { isNotEmpty: 'first' }), failure('email', { isNotEmpty: 'second' })]);
    expect((error.getResponse() as { message: string }).message).toBe('first');
  });

  it('reports nested fields with a dotted path', () => {
    const nested: ValidationError = { property: 'pricing', children: [failure('currency', { isIn: 'bad currency' })] };
    expect((validationErrorFactory([nested]).getResponse() as { errors: object }).errors).toEqual({ 'pricing.currency': ['bad currency'] });
  });
});
