// What the hostile-input tests share once set up (./fixture.ts): the app, its schema as a client
// sees it, and the seeded objects. Live bindings: set only through the setters here, read anywhere
// after the `before` hook ran.
import type { GraphQLSchema } from 'graphql';
import type { TestApp } from '../helpers/app.ts';

export type Seeds = Record<string, string>;

export let t: TestApp;
export let schema: GraphQLSchema;
export let seeds: Seeds;
export let otherWorkspaceTask: string;
export let checklistVersion = 0;
/** The MCP test server the seeded registration points at, and that registration's current version. */
export const mcp = { url: 'http://127.0.0.1:9/mcp', version: 1 };
/** The workspace's main agent principal's current version (an accepted rename moves it on). */
export const agent = { version: 1 };
/** The seeded schedule's current version (an accepted update, pause or resume moves it on). */
export const schedule = { version: 1 };

export function setApp(app: TestApp): void {
  t = app;
}

export function setSeeded(s: { seeds: Seeds; otherWorkspaceTask: string; checklistVersion: number; schema: GraphQLSchema }): void {
  seeds = s.seeds;
  otherWorkspaceTask = s.otherWorkspaceTask;
  checklistVersion = s.checklistVersion;
  schema = s.schema;
}
