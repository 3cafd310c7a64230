// What a person reads while a task waits for its results: plain words in the task's language,
// never the tools' names.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { waitingForResults } from '../server/domain/replies/waiting.ts';

describe('waiting for results, in plain words', () => {
  test('counts what is being made, per kind, in the task language', () => {
    assert.equal(waitingForResults(['IMAGE', 'IMAGE', 'IMAGE'], 'en'), 'Waiting for 3 images to finish');
    assert.equal(waitingForResults(['IMAGE', 'VIDEO'], null), 'Waiting for 1 image and 1 video clip to finish');
    assert.equal(waitingForResults(['IMAGE', 'IMAGE'], 'de'), 'Wartet auf 2 Bilder');
    assert.equal(waitingForResults(['MODEL_3D'], 'fr'), 'En attente de 1 modèle 3D');
    assert.equal(waitingForResults([], 'es'), 'Esperando los resultados');
    for (const lang of ['en', 'de', 'fr', 'es', 'zh', 'ja']) assert.doesNotMatch(waitingForResults(['IMAGE', 'AUDIO'], lang), /generate_|_/);
  });
});
