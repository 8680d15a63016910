import type { ValueTransformer } from 'typeorm';

/** BIGINT read back as a number on both engines (sizes stay far below 2^53). */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null || value === undefined ? value : Number(value)),
};
