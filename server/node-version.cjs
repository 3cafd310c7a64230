// Run first by `npm start`, `npm test` and the other npm scripts that run Atelier: on a Node.js older
// than 22.12 (what pg-boss 12 and Yoga's fetch layer need) they stop at once with one sentence and
// exit code 1, instead of failing later in some dependency. Deliberately plain CommonJS in the
// oldest syntax (no modules, no arrow functions, no template literals), so that any Node parses and
// runs it. ATELIER_NODE_VERSION_UNDER_TEST stands in for the running version in the tests only.
'use strict';

var MIN_MAJOR = 22;
var MIN_MINOR = 12;

/** The sentence to stop with for this version ("20.20.2"), or null when it is new enough. */
function nodeVersionProblem(version) {
  var parts = String(version).replace(/^v/, '').split('.');
  var major = Number(parts[0]);
  var minor = Number(parts[1]);
  if (major > MIN_MAJOR || (major === MIN_MAJOR && minor >= MIN_MINOR)) return null;
  return (
    'Atelier needs Node.js ' + MIN_MAJOR + '.' + MIN_MINOR + ' or newer; this is Node ' + String(version).replace(/^v/, '') +
    '. Install Node 22 LTS from https://nodejs.org and run the command again.'
  );
}

module.exports = { nodeVersionProblem: nodeVersionProblem };

if (require.main === module) {
  var problem = nodeVersionProblem(process.env.ATELIER_NODE_VERSION_UNDER_TEST || process.versions.node);
  if (problem) {
    process.stderr.write(problem + '\n');
    process.exit(1);
  }
}
