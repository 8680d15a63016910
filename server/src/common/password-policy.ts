import { dictionary } from '@zxcvbn-ts/language-common';
import { ValidateBy } from 'class-validator';

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose one that is harder to guess.';

/** The ~49,000 most common passwords of leaked lists (zxcvbn-ts), compared without regard to case. */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].map((password) => password.toLowerCase()));

export const isCommonPassword = (password: string) => COMMON_PASSWORDS.has(password.trim().toLowerCase());

/** Refuses a password found in lists of common and breached passwords (OWASP ASVS V6.2). */
export const IsNotCommonPassword = () =>
  ValidateBy({
    name: 'isNotCommonPassword',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !isCommonPassword(value),
      defaultMessage: () => COMMON_PASSWORD_MESSAGE,
    },
  });
