import { builder } from '../builder.ts';

// The root of every write; the fields are added by area in ../mutations.
builder.mutationType({ description: 'Every write. Each root field is authorised by one table (role × scope × principal) before any of them runs.' });
