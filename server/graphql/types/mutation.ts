import { builder } from '../builder.ts';

// The root of every write; the fields are added by area in ../mutations.
builder.mutationType({});
