const { titleCase } = require('./util/strings');

// TODO: let callers choose the greeting.
function greet(name) {
  return `Hello, ${titleCase(name)}!`;
}

module.exports = { greet };
