import { useForm } from '@mantine/form';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http-client';
import { applyFieldErrors } from './field-errors';

const formWith = () => renderHook(() => useForm({ initialValues: { email: '', product: '', devices: 1 } })).result;

const refused = (errors: Record<string, string[]>) => new ApiError('Validation failed', 400, { message: 'Validation failed', errors });

describe('applyFieldErrors', () => {
  it("puts each of the server's field errors under its field, joined", () => {
    const form = formWith();
    let applied = false;
    act(() => {
      applied = applyFieldErrors(form.current, refused({ email: ['email must be an email', 'email is taken'] }));
    });
    expect(applied).toBe(true);
    expect(form.current.errors).toEqual({ email: 'email must be an email, email is taken' });
  });

  it('maps server names onto form names and localizes the messages', () => {
    const form = formWith();
    act(() => {
      applyFieldErrors(form.current, refused({ product_name: ['unknown product'], max_activations: ['too many'] }), {
        fields: { product_name: 'product', max_activations: 'devices' },
        localize: (message) => `«${message}»`,
      });
    });
    expect(form.current.errors).toEqual({ product: '«unknown product»', devices: '«too many»' });
  });

  it('leaves fields the form does not have, and errors that are not from the server, to the general error', () => {
    const form = formWith();
    let applied = true;
    act(() => {
      applied = applyFieldErrors(form.current, refused({ password: ['too common'] }));
    });
    expect(applied).toBe(false);
    act(() => {
      applied = applyFieldErrors(form.current, new Error('offline'));
    });
    expect(applied).toBe(false);
    act(() => {
      applied = applyFieldErrors(form.current, new ApiError('Conflict', 409, { message: 'Conflict' }));
    });
    expect(applied).toBe(false);
    expect(form.current.errors).toEqual({});
  });
});
