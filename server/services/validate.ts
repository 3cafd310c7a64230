// zod at the service boundary: invalid input becomes BAD_USER_INPUT with the offending fields.
import type { z } from 'zod';
import { AppError } from '../errors.ts';

export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const fields = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new AppError('BAD_USER_INPUT', `Invalid input: ${fields.map((f) => `${f.path || 'input'}: ${f.message}`).join('; ')}`, {
    fields,
  });
}
