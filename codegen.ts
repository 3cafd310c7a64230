// GraphQL Code Generator: typed documents from schema.graphql (itself generated from the Pothos
// schema) for the tests and the web app. Output is generated, not committed.
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  ignoreNoDocuments: false,
  generates: {
    'test/gql/': {
      documents: ['test/**/*.ts', '!test/gql/**'],
      preset: 'client',
      presetConfig: { gqlTagName: 'graphql', fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        importExtension: '.ts',
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
    },
    'web/gql/': {
      documents: ['web/**/*.{ts,tsx}', '!web/gql/**', '!web/.next/**'],
      preset: 'client',
      // Trusted documents: every operation of the web app gets a sha256 hash, and the server
      // accepts the web app's requests only by those hashes (web/gql/persisted-documents.json).
      presetConfig: { gqlTagName: 'graphql', fragmentMasking: false, persistedDocuments: { mode: 'embedHashInDocument', hashAlgorithm: 'sha256' } },
      config: {
        documentMode: 'string',
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
    },
  },
};

export default config;
