/** A credential as presented: a bearer token, or the session cookie (which needs origin and CSRF checks). */
export type Credential = { token: string; via: 'bearer' | 'cookie' };
